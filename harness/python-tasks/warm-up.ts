/**
 * What the first item of a Python-task suite would otherwise wait for, started while Vitest collects the
 * items: the sandbox's warm Python servers, the judge its checks need, and that judge's driver compiled for
 * the sandbox. Each starts once per worker; where one cannot start, the first item that needs it says why.
 */
import { sandbox } from '../../adapters/sandbox/index.ts'
import { prepareCallDriver } from './checks/call-driver-run.ts'
import { startCheckJudge } from './checks/check-judge.ts'
import { prepareIoDriver } from './io/driver-run.ts'
import { startJudge } from './io/judge-process.ts'
import type { PythonTask } from './python-task.ts'

export function warmUpFor(tasks: readonly PythonTask[]): void {
  if (tasks.length === 0) return
  sandbox().warmUp?.('python')
  if (tasks.some((task) => 'check' in task.judge)) {
    startCheckJudge()
    prepareCallDriver()
  }
  if (tasks.some((task) => 'io' in task.judge)) {
    startJudge()
    prepareIoDriver()
  }
}
