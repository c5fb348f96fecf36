import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { streamChatCompletion } from '../support/fake-openai.ts'
import { sendJson, startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts'
import { startVitestRun } from '../support/run-vitest.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function filesIn(directory: string, extension: string): string[] {
  return existsSync(directory)
    ? readdirSync(directory)
        .filter((name) => name.endsWith(extension))
        .map((name) => join(directory, name))
    : []
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

test('a run stopped by Ctrl-C halfway leaves reports of the items that finished, marked incomplete, and does not pass the gate', async () => {
  let answering = 2
  server = await startLoopbackServer((request, response) => {
    if (request.path === '/v1/models')
      return sendJson(response, 200, {
        object: 'list',
        data: [{ id: 'fake', object: 'model', created: 0, owned_by: 't' }],
      })
    const [, a = '0', b = '0'] = /What is (-?\d+) \+ (-?\d+)\?/.exec(JSON.parse(request.body).messages[0].content) ?? []
    if (answering-- > 0) streamChatCompletion(response, `<ANSWER>${Number(a) + Number(b)}</ANSWER>`)
    // The other requests hang, as a slow model's would, until the run is stopped.
  })
  const reports = mkdtempSync(join(tmpdir(), 'interrupted-'))
  const scratch = mkdtempSync(join(tmpdir(), 'interrupted-tmp-'))
  const gate = join(reports, 'demo.gate.json')
  writeFileSync(gate, JSON.stringify({ suites: { demo: { minimum: { 'demo pass rate': 0 } } } }))
  const run = startVitestRun(['--project', 'suites', 'suites/demo'], {
    MODEL: 'openai:fake',
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: 'test',
    TESTBENCH_CACHE: 'off',
    TESTBENCH_CONCURRENCY: '1',
    TESTBENCH_REPORT_DIR: reports,
    TESTBENCH_GATE_CONFIG: gate,
    TMPDIR: scratch,
  })
  const demo = join(reports, 'demo')
  const finishedLines = () =>
    filesIn(demo, '.jsonl').flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean))
  await waitFor(() => finishedLines().length === 2, 'two finished items')
  // Ctrl-C in a terminal signals the whole foreground process group.
  if (run.child.pid !== undefined) process.kill(-run.child.pid, 'SIGINT')
  const { code, output } = await run.done

  expect(code, output).not.toBe(0)
  expect(output).not.toContain('Model gate (')
  expect(finishedLines()).toHaveLength(2)
  const [json] = filesIn(demo, '.json')
  const report = JSON.parse(readFileSync(json ?? '', 'utf8'))
  expect(report).toMatchObject({ complete: false, outcomes: { passed: 2 } })
  expect(report.items).toHaveLength(2)
  const [text] = filesIn(demo, '.txt')
  expect(readFileSync(text ?? '', 'utf8')).toContain('INCOMPLETE (interrupted: scores cover finished items only)')
  // The run's own temp folders (the slot server's socket…) went with it, teardown or not.
  expect(readdirSync(scratch).filter((name) => name.startsWith('testbench-'))).toEqual([])
})
