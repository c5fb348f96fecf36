import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { ChatRequest } from '../../../adapters/models/model-adapter.ts'
import { ReplyCache } from '../../../adapters/models/reply-cache.ts'
import type { CacheMode } from '../../../harness/knobs.ts'
import { chatRequest } from '../../support/chat-request.ts'

const model = { provider: 'ollama', model: 'qwen2.5', details: { digest: 'sha256:aaa' } }

function countingModel() {
  const asked: ChatRequest[] = []
  return {
    asked,
    ask: async (request: ChatRequest) => (asked.push(request), { text: `reply ${asked.length}`, latencyMs: 1 }),
  }
}

function cacheIn(directory: string, mode: CacheMode = 'on', warn?: (message: string) => void) {
  return new ReplyCache(directory, mode, warn)
}

const directories: string[] = []
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})
function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'cache-'))
  directories.push(directory)
  return directory
}

describe('reply cache', () => {
  test('a stored reply is not asked again; any change of key asks again', async () => {
    const directory = temporaryDirectory()
    const counting = countingModel()
    const ask = cacheIn(directory).wrap(model, counting.ask)
    const base = chatRequest('What is 2 + 2?')
    expect((await ask(base)).text).toBe('reply 1')
    expect((await ask(base)).text).toBe('reply 1')
    await ask({ ...base, params: { temperature: 0.7 } })
    await ask({ ...base, item: { ...base.item, sample: 1 } })
    await ask({ ...base, messages: [{ role: 'user', content: 'What is 2 + 3?' }] })
    await ask({ ...base, mode: 'completion' })
    await cacheIn(directory).wrap({ ...model, details: { digest: 'sha256:bbb' } }, counting.ask)(base)
    await cacheIn(directory).wrap({ ...model, model: 'llama3' }, counting.ask)(base)
    expect(counting.asked).toHaveLength(7)
    const files = readdirSync(directory, { recursive: true }).map(String)
    expect(files.filter((name) => name.endsWith('.json'))).toHaveLength(7)
    expect(files.filter((name) => name.endsWith('.tmp'))).toHaveLength(0)
  })

  test('refresh asks again and overwrites; off neither reads nor writes', async () => {
    const directory = temporaryDirectory()
    const counting = countingModel()
    const request = chatRequest('hello')
    await cacheIn(directory).wrap(model, counting.ask)(request)
    expect((await cacheIn(directory, 'refresh').wrap(model, counting.ask)(request)).text).toBe('reply 2')
    expect((await cacheIn(directory).wrap(model, counting.ask)(request)).text).toBe('reply 2')
    expect((await cacheIn(directory, 'off').wrap(model, counting.ask)(request)).text).toBe('reply 3')
    expect((await cacheIn(directory).wrap(model, counting.ask)(request)).text).toBe('reply 2')
  })

  test('a corrupt entry is a miss with one warning naming the file, and the new reply replaces it', async () => {
    const directory = temporaryDirectory()
    const counting = countingModel()
    const warnings: string[] = []
    const request = chatRequest('hello')
    const file = cacheIn(directory).fileFor(model, request)
    await cacheIn(directory).wrap(model, counting.ask)(request)
    for (const corrupt of ['{"key": {}, "reply": {"text": "cut sh', '{"key": {}}', '']) {
      writeFileSync(file, corrupt)
      const ask = cacheIn(directory, 'on', (message) => warnings.push(message)).wrap(model, counting.ask)
      expect((await ask(request)).text).toBe(`reply ${counting.asked.length}`)
      expect((await ask(request)).text).toBe(`reply ${counting.asked.length}`)
    }
    expect(counting.asked).toHaveLength(4)
    expect(warnings).toHaveLength(3)
    for (const warning of warnings) expect(warning).toContain(`the cached reply ${file} is corrupt`)
    expect(JSON.parse(readFileSync(file, 'utf8')).reply.text).toBe('reply 4')
  })

  // A directory where the file should be cannot be read by anyone, root included (mode bits do not stop root).
  test('an unreadable entry is a miss with one warning naming the file and the error', async () => {
    const directory = temporaryDirectory()
    const counting = countingModel()
    const warnings: string[] = []
    const request = chatRequest('hello')
    const file = cacheIn(directory).fileFor(model, request)
    mkdirSync(file, { recursive: true })
    expect(
      (await cacheIn(directory, 'on', (message) => warnings.push(message)).wrap(model, counting.ask)(request)).text,
    ).toBe('reply 1')
    expect(warnings[0]).toContain(`the cached reply ${file} cannot be read (EISDIR)`)
  })

  test('a cache dir that cannot be written keeps the paid replies in the run, with one warning', async () => {
    const blocker = join(temporaryDirectory(), 'a-file')
    writeFileSync(blocker, '')
    const directory = join(blocker, 'cache')
    const counting = countingModel()
    const warnings: string[] = []
    const ask = cacheIn(directory, 'on', (message) => warnings.push(message)).wrap(model, counting.ask)
    expect((await ask(chatRequest('one'))).text).toBe('reply 1')
    expect((await ask(chatRequest('two'))).text).toBe('reply 2')
    expect(warnings).toEqual([
      expect.stringMatching(/cannot be stored in the cache .* \(ENOTDIR\).*make TESTBENCH_CACHE_DIR=.* writable/),
    ])
  })

  test('two requests that differ only in their tools, or only in the thinking switch, do not share an entry; a reply with calls comes back whole', async () => {
    const directory = temporaryDirectory()
    const asked: ChatRequest[] = []
    const call = { id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }
    const withCalls = async (request: ChatRequest) => (
      asked.push(request),
      { text: `reply ${asked.length}`, latencyMs: 1, toolCalls: [call] }
    )
    const ask = cacheIn(directory).wrap(model, withCalls)
    const tool = {
      name: 'read_file',
      description: 'Reads a file.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    }
    const base = chatRequest('Read a.txt.')
    const variants: ChatRequest[] = [
      base,
      { ...base, tools: [tool] },
      { ...base, tools: [{ ...tool, description: 'Reads a whole file.' }] },
      { ...base, params: { ...base.params, think: 'on' } },
      { ...base, params: { ...base.params, think: 'off' } },
      { ...base, tools: [tool], params: { ...base.params, think: 'high' } },
    ]
    for (const variant of variants) await ask(variant)
    for (const variant of variants) expect(await ask(variant)).toMatchObject({ toolCalls: [call] })
    expect(asked).toHaveLength(variants.length)
    expect(new Set(variants.map((variant) => cacheIn(directory).fileFor(model, variant))).size).toBe(variants.length)
    // No tools and an empty list are the same request, with the key replies had before tools existed.
    expect(cacheIn(directory).fileFor(model, { ...base, tools: [] })).toBe(cacheIn(directory).fileFor(model, base))
  })
})
