/** Runs a model's program in the sandbox and judges its output: how one PE-Bench item ends. */
import type { Verdict } from '../../adapters/outcome.ts'
import { runProgram, type RunResult } from '../../adapters/sandbox/index.ts'
import { isAnswer, lastLine } from './judge.ts'
import type { Language } from './languages.ts'

export interface Judgement extends Verdict {
  /** For people: the reason, then the ends of stdout, stderr and the compiler's output. */
  output: string
}

export interface RunLimits {
  /** Wall time of the run itself; compiling has the sandbox's own, separate limit. */
  runTimeoutMs: number
}

const GiB = 1024 * 1024 * 1024
const SHOWN_CHARS = 2000

export async function runSolution(
  program: string,
  language: Language,
  answer: string,
  limits: RunLimits,
): Promise<Judgement> {
  const main = mainFile(program, language)
  const result = await runProgram({
    language: language.id,
    files: { [main]: program },
    main,
    limits: {
      wallMs: limits.runTimeoutMs,
      // The wall limit is the one that binds: a JVM's helper threads also spend CPU time.
      cpuSeconds: 2 * Math.ceil(limits.runTimeoutMs / 1000),
      // The original set no memory limit; big sieves are common and fine.
      memoryBytes: 2 * GiB,
    },
  })
  return judge(result, answer)
}

export function judge(result: RunResult, answer: string): Judgement {
  const printed = lastLine(result.stdout.text)
  if (result.outcome !== 'passed') return judgement(result, result.outcome, result.reason)
  if (result.stdout.truncated) {
    return judgement(
      result,
      'wrong_answer',
      `The program printed ${result.stdout.bytes} bytes, more than the sandbox keeps; its last line is lost.`,
    )
  }
  if (isAnswer(result.stdout.text, answer))
    return judgement(result, 'passed', `Printed the answer as its last line: ${printed}`)
  return judgement(
    result,
    'wrong_answer',
    printed === ''
      ? 'The program printed nothing.'
      : `The last line printed, ${JSON.stringify(printed)}, is not the answer.`,
  )
}

function judgement(result: RunResult, outcome: Verdict['outcome'], reason: string): Judgement {
  return { outcome, reason, output: describe(result, reason) }
}

const MAIN_FILE: Record<Language['id'], string> = {
  python: 'main.py',
  java: 'Main.java',
  rust: 'main.rs',
  clojure: 'main.clj',
  javascript: 'main.js',
  go: 'main.go',
  c: 'main.c',
  cpp: 'main.cpp',
}

/** Java wants the file named after its public class; every other language has a fixed entry file. */
export function mainFile(program: string, language: Language): string {
  if (language.id !== 'java') return MAIN_FILE[language.id]
  const publicClass = /^\s*public\s+(?:final\s+|abstract\s+)*class\s+(\w+)/m.exec(program)?.[1]
  const anyClass = /^\s*(?:final\s+)?class\s+(\w+)/m.exec(program)?.[1]
  return `${publicClass ?? anyClass ?? 'Main'}.java`
}

function describe(result: RunResult, verdict: string): string {
  const sections = [
    verdict === result.reason
      ? `${verdict} (${result.wallMs} ms)`
      : `${verdict}\n${result.reason} (${result.wallMs} ms)`,
  ]
  const compiler = result.compileOutput?.trim() ?? ''
  if (compiler !== '') sections.push(`--- compiler ---\n${tail(compiler)}`)
  if (result.stdout.text.trim() !== '') sections.push(`--- stdout ---\n${tail(result.stdout.text)}`)
  if (result.stderr.text.trim() !== '' && result.stderr.text.trim() !== compiler)
    sections.push(`--- stderr ---\n${tail(result.stderr.text)}`)
  return sections.join('\n')
}

function tail(text: string): string {
  const trimmed = text.trimEnd()
  return trimmed.length <= SHOWN_CHARS ? trimmed : `…${trimmed.slice(-SHOWN_CHARS)}`
}
