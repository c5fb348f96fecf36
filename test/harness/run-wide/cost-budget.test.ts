import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import type { ChatRequest } from '../../../adapters/models/model-adapter.ts'
import {
  CostLimitReached,
  localLedger,
  noneSent,
  unpricedModels,
  worstCaseCost,
  type Reservation,
} from '../../../harness/run-wide/cost-budget.ts'
import { readPrices } from '../../../harness/run-wide/prices.ts'
import { converse } from '../../../harness/conversation/converse.ts'
import { toolSucceeded } from '../../../harness/conversation/tool.ts'
import { chatRequest } from '../../support/chat-request.ts'
import { startScriptedModelServer } from '../../support/scripted-model-server.ts'
import { serveRecordings, WIRE_RECORDINGS_MISSING, wireCases } from '../../support/wire-recordings.ts'

const request = (index: number): ChatRequest =>
  chatRequest(`question ${index}`, {
    params: { maxTokens: 10 },
    item: { suite: 'test', itemId: `q${index}`, sample: 0 },
  })

/** Runs the ten items one after another through a fresh model session, as one run of a suite would. */
async function run(
  limit: string,
  provider: 'openai' | 'openrouter' = 'openai',
): Promise<{ answered: number; notAsked: string[] }> {
  vi.stubEnv('TESTBENCH_COST_LIMIT', limit)
  vi.resetModules()
  const { askerFor } = await import('../../../harness/model-session.ts')
  const ask = askerFor({ provider, model: 'fake', label: `${provider}:fake`, details: {} })
  const notAsked: string[] = []
  let answered = 0
  for (let index = 0; index < 10; index++) {
    try {
      await ask(request(index))
      answered++
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'ProviderError' || !('costLimit' in error)) throw error
      notAsked.push(error.message)
    }
  }
  return { answered, notAsked }
}

describe('a run with a cost limit', () => {
  test('stops asking at the limit, then a rerun under a higher one asks only the items not asked', async () => {
    const server = await startScriptedModelServer('openai', [{ text: 'ok' }])
    const dir = mkdtempSync(join(tmpdir(), 'cost-limit-'))
    onTestFinished(async () => {
      vi.unstubAllEnvs()
      rmSync(dir, { recursive: true, force: true })
      await server.close()
    })
    // 1000 per million tokens: each reply (11 prompt + 7 completion tokens) costs 0.018; each request may cost 0.03.
    // The first reserves its worst case, alone; the rest what it cost: 5 fit in 0.1 (0.09), a sixth would pass it.
    const prices = join(dir, 'prices.json')
    writeFileSync(
      prices,
      JSON.stringify({ currency: 'USD', perMillionTokens: { 'openai:fake': { input: 1000, output: 1000 } } }),
    )
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`)
    vi.stubEnv('OPENAI_API_KEY', 'k')
    vi.stubEnv('TESTBENCH_PRICES', prices)
    vi.stubEnv('TESTBENCH_CACHE_DIR', join(dir, 'cache'))
    const posts = () => server.seen.filter((seen) => seen.method === 'POST').length

    const first = await run('0.1')
    expect(first.answered).toBe(5)
    expect(first.notAsked).toHaveLength(5)
    expect(first.notAsked[0]).toMatch(
      /not asked: the run's cost limit is reached \(TESTBENCH_COST_LIMIT=0.1; spent 0.0900 of 0.1000 USD/,
    )
    expect(posts()).toBe(5)

    const second = await run('1')
    expect(second).toEqual({ answered: 10, notAsked: [] })
    expect(posts()).toBe(10)
  })

  test('a conversation checks the limit before each turn: the turn that would pass it is not asked', async () => {
    const server = await startScriptedModelServer('openai', [
      { text: '', toolCalls: [{ id: 'call-1', name: 'echo', arguments: '{"text": "hi"}' }] },
      { text: 'done' },
    ])
    const dir = mkdtempSync(join(tmpdir(), 'cost-limit-'))
    onTestFinished(async () => {
      vi.unstubAllEnvs()
      rmSync(dir, { recursive: true, force: true })
      await server.close()
    })
    const prices = join(dir, 'prices.json')
    writeFileSync(
      prices,
      JSON.stringify({ currency: 'USD', perMillionTokens: { 'openai:fake': { input: 1000, output: 1000 } } }),
    )
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`)
    vi.stubEnv('OPENAI_API_KEY', 'k')
    vi.stubEnv('TESTBENCH_PRICES', prices)
    vi.stubEnv('TESTBENCH_CACHE', 'off')
    // The first turn may cost 0.03 and costs 0.018; the second is reserved at that: 0.036, past 0.03.
    vi.stubEnv('TESTBENCH_COST_LIMIT', '0.03')
    vi.resetModules()
    const { askerFor } = await import('../../../harness/model-session.ts')
    const ask = askerFor({ provider: 'openai', model: 'fake', label: 'openai:fake', details: {} })
    const echo = {
      definition: { name: 'echo', description: 'Says it back.', parameters: { type: 'object', properties: {} } },
      run: async (args: Record<string, unknown>) => toolSucceeded(String(args.text)),
    }
    const conversation = converse(
      (messages, tools, params) => ask({ messages, tools, params, item: request(0).item, mode: 'chat' }),
      {
        messages: [{ role: 'user', content: 'Say hi through the tool.' }],
        tools: [echo],
        limits: { turns: 5, callsPerTool: 3 },
        params: { maxTokens: 10 },
      },
    )
    await expect(conversation).rejects.toHaveProperty('costLimit', true)
    await expect(conversation).rejects.toThrow(/spent 0\.0180 of 0\.0300 USD/)
    expect(server.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1)
  })

  const recorded = wireCases()?.cases.find((each) => each.name === 'openrouter-claude-reasoning')
  test.skipIf(recorded === undefined)(
    `OpenRouter's own usage.cost is what a reply spends, where the prices count in US dollars ${recorded ? '' : WIRE_RECORDINGS_MISSING}`,
    async () => {
      if (recorded === undefined) return
      const server = await serveRecordings([recorded], 'usage-cost')
      const dir = mkdtempSync(join(tmpdir(), 'cost-limit-'))
      onTestFinished(async () => {
        vi.unstubAllEnvs()
        rmSync(dir, { recursive: true, force: true })
        await server.close()
      })
      vi.stubEnv('OPENROUTER_BASE_URL', `${server.url}/v1`)
      vi.stubEnv('OPENROUTER_API_KEY', 'k')
      vi.stubEnv('TESTBENCH_CACHE', 'off')
      const prices = (currency: string) => {
        const file = join(dir, `${currency}.json`)
        // At these prices the recorded reply's tokens (43 prompt, 36 completion) cost 0.079; OpenRouter says 0.000669.
        writeFileSync(
          file,
          JSON.stringify({ currency, perMillionTokens: { 'openrouter:fake': { input: 1000, output: 1000 } } }),
        )
        return file
      }
      vi.stubEnv('TESTBENCH_PRICES', prices('USD'))
      const inDollars = await run('0.1', 'openrouter')
      expect(inDollars).toEqual({ answered: 10, notAsked: [] })
      vi.stubEnv('TESTBENCH_PRICES', prices('EUR'))
      const inEuros = await run('0.1', 'openrouter')
      expect(inEuros.answered).toBe(1)
      expect(inEuros.notAsked[0]).toMatch(/spent 0\.0790 of 0\.1000 EUR/)
    },
  )

  test('the worst case of a request: its prompt at 3 characters a token and its maxTokens, each at its price', () => {
    const price = { input: 1_000_000, output: 2_000_000 }
    expect(worstCaseCost(chatRequest('x'.repeat(30), { params: { maxTokens: 5 } }), price)).toBe(10 + 16 + 2 * 5)
  })

  test('the first request of a kind goes alone, reserving its worst case or what is left; the rest what it cost', async () => {
    const ledger = localLedger(0.18)
    // A worst case of 3.28 (32,768 output tokens at 100 a million) against 0.18: it goes, alone, reserving 0.18.
    const first = await ledger.reserve(3.28, 'pro')
    expect(first).toBeDefined()
    expect(ledger.state()).toMatchObject({ inFlight: 0.18, sent: 1 })
    let second: Reservation | undefined
    const waiting = ledger.reserve(3.28, 'pro').then((granted) => (second = granted))
    await Promise.resolve()
    expect(second).toBeUndefined()
    // It cost 0.01: the next is reserved at 0.01, and so on while what was spent plus in flight stays within 0.18.
    first?.settle(0.01)
    await waiting
    expect(ledger.state()).toMatchObject({ spent: 0.01, inFlight: 0.01 })
    const more = await Promise.all(Array.from({ length: 16 }, () => ledger.reserve(3.28, 'pro')))
    expect(more.every((each) => each !== undefined)).toBe(true)
    expect(ledger.state().spent + ledger.state().inFlight).toBeCloseTo(0.18, 10)
    for (const each of [second, ...more]) each?.settle(0.01)
    expect(await ledger.reserve(3.28, 'pro')).toBeUndefined()
    // 18 of 0.01 each: all of the limit spent, none of it passed.
    expect(ledger.state()).toMatchObject({ refused: 1, sent: 18 })
    expect(ledger.state().inFlight).toBeCloseTo(0, 10)
    expect(ledger.state().spent).toBeCloseTo(0.18, 10)
  })

  test('a request waits while those in flight may end cheaper than reserved, and is refused once none can', async () => {
    const ledger = localLedger(1)
    ledger.reserve(0.6, 'a').then((first) => first?.settle(0.4))
    await Promise.resolve()
    // One cost 0.4: a second and a third are reserved at 0.4 each; the third waits for the second to end.
    const second = await ledger.reserve(5, 'a')
    let third: Reservation | undefined | 'refused' = undefined
    const asked = ledger.reserve(5, 'a').then((granted) => (third = granted ?? 'refused'))
    await Promise.resolve()
    expect(third).toBeUndefined()
    // The second ended cheap (0.1): 0.5 spent, and the third, at the average 0.25, fits.
    second?.settle(0.1)
    await asked
    expect(third).not.toBe('refused')
    expect(ledger.state()).toMatchObject({ spent: 0.5, inFlight: 0.25 })
  })

  test('kinds are apart: another model or suite goes alone first, with its own estimate', async () => {
    const ledger = localLedger(1)
    const cheap = await ledger.reserve(0.5, 'cheap')
    const dear = await ledger.reserve(0.5, 'dear')
    expect(ledger.state().inFlight).toBe(1)
    cheap?.settle(0.01)
    dear?.settle(0.3)
    await ledger.reserve(0.5, 'cheap')
    expect(ledger.state().inFlight).toBeCloseTo(0.01, 10)
  })

  test('when no request could be sent, the summary says why and what to change', () => {
    const state = { limit: 0.18, spent: 0, inFlight: 0, refused: 45, sent: 0, refusedWorstCase: 3.28 }
    expect(noneSent(state, 'USD')).toMatch(
      /No request was sent: the limit had 0\.1800 USD left, and one request may cost up to 3\.2800 .*Raise TESTBENCH_COST_LIMIT, or give the suite a lower maxTokens/,
    )
    expect(noneSent({ ...state, sent: 3 }, 'USD')).toBe('')
  })

  test('every model the run asks needs a price, else one error before any item', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cost-limit-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'prices.json')
    writeFileSync(file, JSON.stringify({ currency: 'USD', perMillionTokens: { 'openai:a': { input: 1, output: 1 } } }))
    expect(unpricedModels(['openai:a'], readPrices(file))).toBeUndefined()
    expect(unpricedModels(['openai:a', 'anthropic:b'], readPrices(file))).toMatch(/has none for anthropic:b/)
    expect(unpricedModels(['openai:a'], undefined)).toMatch(/set TESTBENCH_PRICES/)
    expect(new CostLimitReached('x')).toHaveProperty('costLimit', true)
  })
})
