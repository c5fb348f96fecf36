import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { clientEnv, startFaultyModelServer, type FaultyServer } from '../../support/fault-injecting-server.ts'
import { runSuiteForRecords, startVitestRun } from '../../support/run-vitest.ts'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** The sum a demo prompt asks for, as a right answer. */
const adder = (prompt: string): string => {
  const [, a = '0', b = '0'] = /What is (-?\d+) \+ (-?\d+)\?/.exec(prompt) ?? []
  return `<ANSWER>${Number(a) + Number(b)}</ANSWER>`
}

const generations = (server: FaultyServer) =>
  server.seen.filter((seen) => seen.path.endsWith('/chat/completions')).length

test('a corrupt cache entry costs one request and one warning naming the file; the rerun still passes', async () => {
  const server = await startFaultyModelServer({ protocol: 'openai', model: 'fake', answer: adder })
  const cacheDir = mkdtempSync(join(tmpdir(), 'corrupt-cache-'))
  cleanups.push(
    () => server.close(),
    () => rmSync(cacheDir, { recursive: true, force: true }),
  )
  const env = { ...clientEnv('openai', server.url, 'fake'), TESTBENCH_CACHE: 'on', TESTBENCH_CACHE_DIR: cacheDir }

  const first = await runSuiteForRecords('demo', env)
  cleanups.push(() => rmSync(dirname(first.reports), { recursive: true, force: true }))
  expect(first.code, first.output).toBe(0)
  expect(generations(server)).toBe(5)

  const files = readdirSync(join(cacheDir, 'replies'), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.json'),
  )
  expect(files).toHaveLength(5)
  const corrupt = join(cacheDir, 'replies', files[0]!)
  writeFileSync(corrupt, '{"key": {}, "reply": {"text": "<ANSW')

  // With the default reporter, as a user runs it: that is where a test's warnings are printed.
  const reports = mkdtempSync(join(tmpdir(), 'corrupt-cache-reports-'))
  cleanups.push(() => rmSync(reports, { recursive: true, force: true }))
  const second = await startVitestRun(['--project', 'suites', 'suites/demo'], { ...env, TESTBENCH_REPORT_DIR: reports })
    .done
  expect(second.code, second.output).toBe(0)
  expect(second.output).toMatch(/5 passed/)
  expect(generations(server)).toBe(6)
  expect(second.output.split(`the cached reply ${corrupt} is corrupt`).length - 1, second.output).toBe(1)
}, 120_000)
