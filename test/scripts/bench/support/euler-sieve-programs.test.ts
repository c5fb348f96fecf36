import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import {
  primesBelow,
  SIEVE_LANGUAGES,
  sieveProgram,
  type SieveLanguage,
} from '../../../../scripts/bench/support/euler-sieve-programs.ts'
import { notOnPath, skipWithoutTool, TOOLS, type Tool } from '../../../support/required-tool.ts'

const work = mkdtempSync(join(tmpdir(), 'euler-sieve-programs-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** How each language's program runs here, as upstream's execute.py runs it (no optimisation for Rust). */
const RUNNERS: Record<SieveLanguage, { tool: Tool; commands: string[]; run: (source: string) => string }> = {
  python: {
    tool: { name: 'python3', install: 'apt-get install python3' },
    commands: ['python3'],
    run: (source) => execFileSync('python3', ['-c', source], { encoding: 'utf8' }),
  },
  java: {
    tool: TOOLS.java,
    commands: ['java'],
    // A single-file source program: java compiles it in memory and runs its first class.
    run: (source) => {
      const file = join(work, 'Main.java')
      writeFileSync(file, source)
      return execFileSync('java', [file], { encoding: 'utf8' })
    },
  },
  rust: {
    tool: TOOLS.rustc,
    commands: ['rustc'],
    run: (source) => {
      const file = join(work, 'main.rs')
      writeFileSync(file, source)
      execFileSync('rustc', ['-A', 'warnings', '-o', join(work, 'main'), file])
      return execFileSync(join(work, 'main'), { encoding: 'utf8' })
    },
  },
  clojure: {
    tool: TOOLS.clojure,
    commands: ['clojure'],
    run: (source) => execFileSync('clojure', ['-e', source], { encoding: 'utf8' }),
  },
}

// The widest and the negative answer of problems 1–100, and small ones whose digits the sieve's own numbers hold.
const ANSWERS = ['6531031914842725', '-59231', '55', '100']

test('π counts the primes below the limit', () => {
  expect([primesBelow(2), primesBelow(10), primesBelow(1000), primesBelow(1_000_000)]).toEqual([0, 4, 168, 78498])
})

test('an answer that is not an integer is refused, with the answer in the message', () => {
  expect(() => sieveProgram('python', '0.464399', 1000)).toThrow(/0\.464399 is not an integer/)
})

describe.for(SIEVE_LANGUAGES)('%s', (language) => {
  test('no program holds its answer, even without commas', () => {
    for (const answer of ANSWERS) expect(sieveProgram(language, answer, 1000).replaceAll(',', '')).not.toContain(answer)
  })

  // One run per language: the JVM's and rustc's start-up make each run a second or more.
  test('the program prints its answer on the last line', (context) => {
    const runner = RUNNERS[language]
    skipWithoutTool(context, runner.tool, runner.commands.map((command) => notOnPath(command)).find(Boolean))
    const answer = ANSWERS[1] ?? ''
    expect(
      runner
        .run(sieveProgram(language, answer, 1000))
        .trim()
        .split('\n')
        .at(-1),
    ).toBe(answer)
  })
})
