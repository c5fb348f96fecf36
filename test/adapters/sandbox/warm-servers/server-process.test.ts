import { expect, test } from 'vitest'
import { ServerProcess } from '../../../../adapters/sandbox/warm-servers/server-process.ts'

test('a server that cannot be spawned ends as one that exited, saying why, and nothing is left unhandled', async () => {
  const server = new ServerProcess(['/nonexistent/testbench-server', '--serve'])
  await new Promise<void>((resolve) => server.onExit(resolve))
  expect(server.diagnostics()).toMatch(/spawn \/nonexistent\/testbench-server ENOENT/)
  server.write('ignored\n')
  server.kill()
})

test('a server that starts and exits calls its exit listeners once', async () => {
  const server = new ServerProcess(['/bin/sh', '-c', 'echo ready >&2; exit 3'])
  let calls = 0
  await new Promise<void>((resolve) =>
    server.onExit(() => {
      calls++
      resolve()
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(calls).toBe(1)
  expect(server.diagnostics()).toBe('ready')
})
