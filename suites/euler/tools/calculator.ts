import { readFileSync } from 'node:fs'
import { runProgram } from '../../../adapters/sandbox/index.ts'
import { toolFailed, toolSucceeded, type ToolAnswer } from '../../../harness/conversation/tool.ts'

/**
 * PE-Bench's `calculator`: upstream's arithmetic-only rules (calculator.py), evaluated by Python in the
 * sandbox, never in the harness's process: Python's own numbers (big integers, its float printing), and an
 * expression that would run forever or fill the memory (`9**9**9**9`) meets the sandbox's limits.
 */
const CALCULATOR = readFileSync(new URL('./calculator.py', import.meta.url), 'utf8')
const LIMITS = { wallMs: 5_000, cpuSeconds: 5, memoryBytes: 256 * 1024 * 1024 }

export async function calculate(expression: string): Promise<ToolAnswer> {
  if (expression.trim() === '') return toolFailed('expression must not be empty.')
  const result = await runProgram({
    language: 'python',
    files: { 'main.py': CALCULATOR },
    stdin: expression,
    limits: LIMITS,
  })
  if (result.outcome === 'infra_error') throw new Error(`The calculator could not run in the sandbox: ${result.reason}`)
  if (result.outcome === 'timeout')
    return toolFailed(`Calculation error: the expression took longer than ${LIMITS.wallMs / 1000} s.`)
  if (result.outcome === 'memory')
    return toolFailed('Calculation error: the expression needs more memory than the calculator has.')
  const answer = parseAnswer(result.stdout.text)
  if (answer === undefined) return toolFailed(`Calculation error: ${result.reason}`)
  return answer
}

function parseAnswer(stdout: string): ToolAnswer | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(stdout.trim().split('\n').pop() ?? '')
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined
  if ('ok' in parsed && parsed.ok === true && 'value' in parsed && typeof parsed.value === 'string')
    return toolSucceeded(parsed.value)
  if ('error' in parsed && typeof parsed.error === 'string') return toolFailed(parsed.error)
  return undefined
}
