import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createAdapter } from '../../adapters/models/create-adapter.ts'
import { isCutOffAtTokenLimit } from '../../adapters/models/cut-off.ts'
import { parseModel } from '../../adapters/models/model-spec.ts'
import type { WireProtocol } from '../../adapters/models/requests/wire-check.ts'
import { countCutOff, cutOffAdvice, cutOffText } from '../../harness/cut-off-replies.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import { buildRunReport, summaryText } from '../../reporters/run-report.ts'
import { chatRequest } from '../support/chat-request.ts'
import { clientEnv, startFaultyModelServer } from '../support/fault-injecting-server.ts'
import { startLoopbackServer } from '../support/loopback-server.ts'
import { FAST_RETRIES } from '../support/model-test-settings.ts'
import { skipForMissing } from '../support/required-tool.ts'

const CUT_WORDS: ReadonlyArray<readonly [WireProtocol, string]> = [
  ['openai', 'length'],
  ['ollama', 'length'],
  ['anthropic', 'max_tokens'],
  // Anthropic's newer models end so where the context window, not max_tokens, ran out.
  ['anthropic', 'model_context_window_exceeded'],
  ['gemini', 'MAX_TOKENS'],
]
const RECORDINGS = join(import.meta.dirname, '../../../shared/wire-recordings/recordings')

async function adapterFor(protocol: WireProtocol, url: string) {
  const { MODEL, ...rest } = clientEnv(protocol, url, 'fake')
  return createAdapter(parseModel(MODEL!), { ...rest, ...FAST_RETRIES })
}

describe('a reply cut off at the token limit', () => {
  test.for(CUT_WORDS)('%s: the finish reason %s reads as cut off', async ([protocol, word], { onTestFinished }) => {
    const server = await startFaultyModelServer({
      protocol,
      model: 'fake',
      answer: () => 'Half an ans',
      finishReason: word,
    })
    onTestFinished(() => server.close())
    const reply = await (await adapterFor(protocol, server.url)).chat(chatRequest('q'))
    expect(reply.finishReason).toBe(word)
    expect(isCutOffAtTokenLimit(reply.finishReason)).toBe(true)
  })

  test('the ends that are no token limit are not cut off', () => {
    for (const word of ['stop', 'end_turn', 'STOP', 'tool_calls', 'tool_use', 'content_filter', 'SAFETY', undefined])
      expect(isCutOffAtTokenLimit(word)).toBe(false)
  })

  test.for([
    ['openai-length.sse', 'openai', 'length'],
    ['gemini25-pro-max-tokens-empty.chunks.jsonl', 'gemini', 'MAX_TOKENS'],
  ] as const)('the recorded %s reads as cut off', async ([file, protocol, word], context) => {
    const path = join(RECORDINGS, file)
    if (!existsSync(path)) skipForMissing(context, `needs ../shared/wire-recordings (${file})`, 'a recording')
    const recorded = readFileSync(path, 'utf8')
    const body =
      protocol === 'openai'
        ? recorded
        : recorded
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => `data: ${line}\r\n\r\n`)
            .join('')
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(body)
    })
    context.onTestFinished(() => server.close())
    const reply = await (await adapterFor(protocol, server.url)).chat(chatRequest('q'))
    expect(reply.finishReason).toBe(word)
    expect(isCutOffAtTokenLimit(reply.finishReason)).toBe(true)
  })
})

function record(itemId: string, outcome: ItemRecord['outcome'], finishReason?: string): ItemRecord {
  return {
    suite: 'humaneval',
    itemId,
    model: 'openai:m',
    provider: 'openai',
    sample: 0,
    outcome,
    params: { maxTokens: 512 },
    ...(finishReason === undefined ? {} : { finishReason }),
  }
}

describe('counting cut-off replies apart', () => {
  const records = [
    record('a', 'passed', 'length'),
    record('b', 'wrong_answer', 'length'),
    record('c', 'no_answer', 'length'),
    record('d', 'passed', 'stop'),
    record('e', 'provider_error'),
    ...Array.from({ length: 7 }, (_, index) => record(`f${index}`, 'passed', 'stop')),
  ]

  test('counts the answered items whose reply was cut, and how many of them failed; verdicts stay', () => {
    expect(countCutOff(records)).toEqual({ cut: 3, failed: 2, of: 11 })
    expect(cutOffText(countCutOff(records))).toBe('cut off at the token limit: 3 of 11 (2 of them failed)')
  })

  test('a conversation counts as cut when its last turn was', () => {
    const conversation: ItemRecord = {
      ...record('t', 'wrong_answer'),
      trajectory: [
        { turn: 1, text: '', calls: [], latencyMs: 1, finishReason: 'tool_calls' },
        { turn: 2, text: '', calls: [], latencyMs: 1, finishReason: 'max_tokens' },
      ],
    }
    expect(countCutOff([conversation])).toEqual({ cut: 1, failed: 1, of: 1 })
  })

  test('the summary says it; the advice names the limit to raise only above a tenth', () => {
    const report = buildRunReport(records, [], { complete: true, endedAt: new Date() })
    expect(summaryText(report)).toContain('  cut off at the token limit: 3 of 11 (2 of them failed)')
    expect(cutOffAdvice(records)).toContain("raise the request's maxTokens (512)")
    const fewer = [records[0]!, ...Array.from({ length: 10 }, (_, index) => record(`g${index}`, 'passed', 'stop'))]
    expect(cutOffAdvice(fewer)).toBeUndefined()
  })
})
