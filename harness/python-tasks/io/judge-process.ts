/**
 * The judge (judge.py): a trusted Python process beside the harness, outside the
 * sandbox, that compares a candidate's returned values with the canonical outputs
 * by EvalPlus's rules. One per Vitest worker, started on first use.
 */
import { PythonLineServer } from '../python-line-server.ts'
import type { OracleKind } from './evalplus-oracle.ts'

export interface JudgeRequest {
  /** The oracle file and the task in it. */
  oracle: string
  task: string
  kind: OracleKind
  /** The driver's stdout from the candidate's run. */
  output: string
}

export type FailureStatus = 'wrong' | 'timeout' | 'error' | 'unencodable' | 'missing' | 'malformed'

export interface JudgeVerdict {
  passed: boolean
  /** Every base input (the original benchmark's tests) passed. */
  basePassed: boolean
  inputs: number
  base: number
  checked: number
  /** CPU and wall time the function took over the inputs checked, as the driver measured them. */
  cpuMs: number
  wallMs: number
  failure: { index: number | null; status: FailureStatus; detail: string } | null
}

const judge = new PythonLineServer({
  script: new URL('judge.py', import.meta.url),
  name: 'The EvalPlus judge (judge.py)',
  flags: ['-B', '-E', '-s'],
})

/** Starts the judge while the items are collected, so that the first item does not wait for it. */
export function startJudge(): void {
  judge.start()
}

export async function judgeOutputs(request: JudgeRequest): Promise<JudgeVerdict> {
  return (await judge.ask({ ...request })) as unknown as JudgeVerdict
}
