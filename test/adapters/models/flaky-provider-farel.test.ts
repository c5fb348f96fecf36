import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { ChatReply } from '../../../adapters/models/model-adapter.ts'
import type { WireProtocol } from '../../../adapters/models/requests/wire-check.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { scoreFarel } from '../../../suites/farel/score.ts'
import {
  clientEnv,
  FAULT_KINDS,
  startFaultyModelServer,
  type FaultyServer,
} from '../../support/fault-injecting-server.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { steadyFarelModel as steadyModel } from '../../support/steady-model.ts'

/**
 * A flaky provider never changes a score (issue 14): FaRel through each wire protocol, clean and with
 * every fault kind at 20 %, gives the same score and the same outcome for every item, and leaves only
 * whole replies in the cache.
 */

const PROTOCOLS: WireProtocol[] = ['openai', 'ollama', 'anthropic', 'gemini']
const SMALL_RUN = { TESTBENCH_FAREL_PER_CLASS: '8' } // 72 quizzes, every class
const FAST_RETRIES = { TESTBENCH_IDLE_TIMEOUT: '1', TESTBENCH_RETRY_DELAY: '0.01', TESTBENCH_RETRIES: '8' }

const servers: FaultyServer[] = []
const runDirs: string[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
  for (const dir of runDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function runFarel(protocol: WireProtocol, faults: boolean) {
  const server = await startFaultyModelServer({
    protocol,
    model: 'fake',
    answer: steadyModel,
    ...(faults ? { faults: { rate: 0.2, kinds: FAULT_KINDS, seed: 11 } } : {}),
  })
  servers.push(server)
  const run = await runSuiteForRecords('farel', {
    ...clientEnv(protocol, server.url, 'fake'),
    ...SMALL_RUN,
    ...FAST_RETRIES,
    TESTBENCH_CACHE: 'on',
  })
  runDirs.push(dirname(run.reports))
  return { ...run, server, cacheDir: join(dirname(run.reports), 'cache') }
}

const outcomes = (records: ItemRecord[]) =>
  Object.fromEntries(records.map((record) => [`${record.itemId} #${record.sample}`, record.outcome]))

describe.each(PROTOCOLS)('FaRel through a flaky %s server', (protocol) => {
  test('every fault kind at 20 %: the same score and the same outcome for every item as the clean run; only whole replies cached', async () => {
    const clean = await runFarel(protocol, false)
    const flaky = await runFarel(protocol, true)
    expect(clean.records, clean.output).toHaveLength(72)
    expect(flaky.records, flaky.output).toHaveLength(72)
    expect(new Set(clean.records.map((record) => record.outcome))).toEqual(
      new Set(['passed', 'wrong_answer', 'no_answer']),
    )
    expect(outcomes(flaky.records)).toEqual(outcomes(clean.records))
    expect(scoreFarel(flaky.records)).toEqual(scoreFarel(clean.records))
    const injected = Object.values(flaky.server.injected).reduce((sum, count) => sum + count, 0)
    expect(injected).toBeGreaterThanOrEqual(8)
    expect(flaky.records.every((record) => record.finishReason !== undefined)).toBe(true)

    const cached = cachedReplies(flaky.cacheDir)
    expect(cached).toHaveLength(72)
    for (const { prompt, reply } of cached) expect(reply.text).toBe(steadyModel(prompt))
  }, 240_000)
})

/** Every reply in a cache dir, with the prompt it answers. */
function cachedReplies(cacheDir: string): Array<{ prompt: string; reply: ChatReply }> {
  const files = readdirSync(join(cacheDir, 'replies'), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.json'),
  )
  return files.map((file) => {
    const stored = JSON.parse(readFileSync(join(cacheDir, 'replies', file), 'utf8')) as {
      key: { messages: Array<{ role: string; content: string }> }
      reply: ChatReply
    }
    return { prompt: stored.key.messages.findLast((message) => message.role === 'user')!.content, reply: stored.reply }
  })
}
