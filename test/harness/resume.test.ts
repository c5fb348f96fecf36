import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { streamChatCompletion } from '../support/fake-openai.ts'
import { sendJson, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts'
import { killRun, startVitestRun } from '../support/run-vitest.ts'
import { waitFor } from '../support/wait-for.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function countFiles(directory: string): number {
  try {
    return readdirSync(directory, { recursive: true }).filter((name) => String(name).endsWith('.json')).length
  } catch {
    return 0
  }
}

test('a run killed halfway, started again, asks only for the missing replies', async () => {
  let answering = 2
  const chatRequests: string[] = []
  server = await startLoopbackServer((request, response) => {
    if (request.path === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'fake', object: 'model', created: 0, owned_by: 't' }],
      })
    const question = JSON.parse(request.body).messages[0].content as string
    chatRequests.push(question)
    const [, a = '0', b = '0'] = /What is (-?\d+) \+ (-?\d+)\?/.exec(question) ?? []
    if (answering-- > 0) streamChatCompletion(response, `<ANSWER>${Number(a) + Number(b)}</ANSWER>`)
    // Otherwise the request hangs, as a slow model would, until the run is killed.
  })
  const cache = mkdtempSync(join(tmpdir(), 'resume-cache-'))
  const env = {
    MODEL: 'openai:fake',
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'test',
    TESTBENCH_CACHE_DIR: cache,
    TESTBENCH_CONCURRENCY: '1',
    TESTBENCH_REPORT_DIR: mkdtempSync(join(tmpdir(), 'resume-reports-')),
  }

  const first = startVitestRun(['suites/demo'], env)
  await waitFor(() => countFiles(cache) === 2 && chatRequests.length === 3, 30_000)
  killRun(first)
  await first.done
  expect(countFiles(cache)).toBe(2)

  const askedBefore = chatRequests.length
  answering = Number.POSITIVE_INFINITY
  const second = await startVitestRun(['suites/demo'], env).done
  expect(second.code, second.output).toBe(0)
  expect(second.output).toMatch(/5 passed/)
  // Five items: two came from the cache, the one that hung and the two never asked go to the server.
  expect(chatRequests.length - askedBefore).toBe(3)
  expect(countFiles(cache)).toBe(5)
}, 120_000)
