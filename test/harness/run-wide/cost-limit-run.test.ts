/**
 * A run with a budget, end to end as the README runs it (`vitest run suites/demo` with TESTBENCH_PRICES and
 * TESTBENCH_COST_LIMIT) against a loopback model: it stops at the limit, says PARTIAL and spent / limit, leaves
 * the items not asked out of the score, and a rerun under a higher limit asks the server only for those.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import type { RunReport } from '../../../reporters/run-report.ts'
import { sendEvents, sendJson, startLoopbackServer } from '../../support/loopback-server.ts'
import { startVitestRun } from '../../support/run-vitest.ts'

/** The demo's one JSON report in `dir`. */
function demoReport(dir: string): RunReport {
  const file = readdirSync(dir, { recursive: true })
    .map(String)
    .find((name) => name.endsWith('.json') && name.includes('demo'))
  if (file === undefined) throw new Error(`no demo report in ${dir}`)
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as RunReport
}

test('a run stops at its cost limit, and a rerun under a higher limit asks only the items not asked', async () => {
  const asked: string[] = []
  const server = await startLoopbackServer((request, response) => {
    if (request.path === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'fake', object: 'model', created: 0, owned_by: 't' }],
      })
    const question =
      (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages.at(-1)?.content ?? ''
    asked.push(question)
    const [, a = '0', b = '0'] = /What is (-?\d+) \+ (-?\d+)\?/.exec(question) ?? []
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'fake' }
    const delta = { role: 'assistant', content: `<ANSWER>${Number(a) + Number(b)}</ANSWER>` }
    // 1,000 tokens a reply: 0.001 USD at 1 USD a million tokens.
    const usage = { prompt_tokens: 100, completion_tokens: 900, total_tokens: 1000 }
    sendEvents(response, [
      { data: { ...base, choices: [{ index: 0, delta, finish_reason: 'stop' }] } },
      { data: { ...base, choices: [], usage } },
      { data: '[DONE]' },
    ])
  })
  const dir = mkdtempSync(join(tmpdir(), 'cost-limit-run-'))
  onTestFinished(async () => {
    rmSync(dir, { recursive: true, force: true })
    await server.close()
  })
  const prices = join(dir, 'prices.json')
  writeFileSync(
    prices,
    JSON.stringify({ currency: 'USD', perMillionTokens: { 'openai:fake': { input: 1, output: 1 } } }),
  )
  const env = (limit: string, reports: string) => ({
    MODEL: 'openai:fake',
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'test',
    TESTBENCH_CACHE_DIR: join(dir, 'cache'),
    TESTBENCH_CONCURRENCY: '1',
    TESTBENCH_PRICES: prices,
    TESTBENCH_COST_LIMIT: limit,
    TESTBENCH_REPORT_DIR: join(dir, reports),
  })

  // Each request may cost about 0.033 (its prompt and the 32,768 tokens assumed for a reply without maxTokens), ten
  // times the limit; each costs 0.001. The first goes alone, then each is reserved at what the first cost: three
  // fit in 0.0031 (97 % of it), a fourth would pass it.
  const first = await startVitestRun(['suites/demo'], env('0.0031', 'first')).done
  expect(asked).toHaveLength(3)
  expect(first.code, first.output).toBe(1)
  expect(first.output).toMatch(/PARTIAL: 2 item\(s\) not asked, the cost limit was reached \(TESTBENCH_COST_LIMIT\)/)
  expect(first.output).toMatch(/cost limit: spent 0\.0030 of 0\.0031 USD; 2 request\(s\) not sent/)
  const report = demoReport(join(dir, 'first'))
  expect(report.costLimit).toMatchObject({ limit: 0.0031, currency: 'USD', notSent: 2 })
  expect(report.costLimit?.spent).toBeCloseTo(0.003, 10)
  expect(report.notAsked).toBe(2)
  expect(report.complete).toBe(false)
  // The items not asked are left out of the score: 3 of 3 right, not 3 of 5.
  expect(report.scores[0]).toMatchObject({ value: 1, counted: { solved: 3, total: 3 } })

  const second = await startVitestRun(['suites/demo'], env('1', 'second')).done
  expect(second.code, second.output).toBe(0)
  expect(asked).toHaveLength(5)
  expect(new Set(asked).size).toBe(5)
  const rerun = demoReport(join(dir, 'second'))
  expect(rerun.notAsked).toBeUndefined()
  expect(rerun.scores[0]).toMatchObject({ value: 1, counted: { solved: 5, total: 5 } })
  expect(rerun.costLimit).toMatchObject({ notSent: 0 })
  expect(rerun.costLimit?.spent).toBeCloseTo(0.002, 10)
}, 180_000)
