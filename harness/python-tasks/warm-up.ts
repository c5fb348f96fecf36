/**
 * What the first item of a Python-task suite would otherwise wait for, started while Vitest collects the
 * items: the sandbox's warm Python servers and the judge its checks need. Each starts once per worker; where
 * one cannot start, the first item that needs it says why.
 */
import { sandbox } from '../../adapters/sandbox/index.ts'
import { startCheckJudge } from './checks/check-judge.ts'
import { startJudge } from './io/judge-process.ts'
import type { PythonTask } from './python-task.ts'

export function warmUpFor(tasks: readonly PythonTask[]): void {
  if (tasks.length === 0) return
  sandbox().warmUp?.('python')
  if (tasks.some((task) => 'check' in task.judge)) {
    startCheckJudge()
  }
  if (tasks.some((task) => 'io' in task.judge)) {
    startJudge()
  }
}
