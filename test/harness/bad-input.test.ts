import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startVitestRun } from '../support/run-vitest.ts'
import { skipWithoutTool, TOOLS } from '../support/required-tool.ts'
import { isolationMissing } from '../support/sandbox-available.ts'
import { badInputs, type BadInput } from './bad-inputs.ts'

/**
 * Every bad input of the table, each through a real `vitest run` of a fast suite: one clear message
 * (what, where, what to do), a bounded number of lines, a non-zero exit, and the reply the cache already
 * held (paid for) still there, byte for byte.
 */

const MAX_LINES = 30
const SUITES_WITHOUT_PROGRAMS = ['suites/demo', 'suites/farel', 'suites/swebench']
const SEEDED_REPLY = JSON.stringify({ reply: 'paid for once, must survive a bad run' })
const dirs: string[] = []

afterAll(async () => {
  for (const dir of dirs) {
    chmodSync(dir, 0o700)
    await rm(dir, { recursive: true, force: true })
  }
})

async function runBadInput(input: BadInput) {
  const dir = await mkdtemp(join(tmpdir(), 'bad-input-'))
  dirs.push(dir)
  const cache = join(dir, 'cache')
  mkdirSync(cache)
  const seeded = join(cache, 'seeded-reply.json')
  writeFileSync(seeded, SEEDED_REPLY)
  const extra = input.prepare?.(dir) ?? {}
  const run = startVitestRun(['--project', 'suites', input.suite ?? 'suites/demo'], {
    MODEL: 'reference',
    TESTBENCH_CACHE_DIR: cache,
    TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    ...input.env,
    ...extra,
  })
  const { code, output } = await run.done
  return { code, output, seededAfter: readFileSync(seeded, 'utf8') }
}

describe.concurrent('bad input gets one clear message and loses nothing', () => {
  it.for(badInputs)('$name', { timeout: 120_000 }, async (input, context) => {
    // A suite that runs programs stops first for a missing sandbox (fail closed), before its datasets are read.
    if (!SUITES_WITHOUT_PROGRAMS.some((suite) => (input.suite ?? 'suites/demo').startsWith(suite)))
      skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
    const { code, output, seededAfter } = await runBadInput(input)
    const lines = output.split('\n').filter((line) => line.trim() !== '')
    expect(code, output).not.toBe(0)
    expect(output, output).toMatch(input.message)
    expect(lines.length, output).toBeLessThanOrEqual(MAX_LINES)
    expect(output).not.toMatch(/No test files found/)
    expect(output.match(input.message)?.length ?? 0).toBeGreaterThan(0)
    // Printed once, not once per item.
    expect(output.split(input.once ?? input.message).length - 1, output).toBe(1)
    expect(seededAfter).toBe(SEEDED_REPLY)
  })
})
