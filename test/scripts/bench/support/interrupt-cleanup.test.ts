/**
 * A bench stopped by Ctrl-C or SIGTERM leaves nothing behind: a small script that registers a temp folder, a run in a
 * process group of its own (as `runSuiteForRecords` starts Vitest) with a worker under it, and a child in its own
 * group, is sent the signal: the folder is gone, every process of both trees too, and it exits with 128 + the signal.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import { killProcessesWith, leftoverToken, processesWith } from '../../../support/host-processes.ts'

const HELPER = new URL('../../../../scripts/bench/support/interrupt-cleanup.ts', import.meta.url).href
const KEEP = 'setInterval(() => {}, 1000)'
const WITH_WORKER = `require('node:child_process').spawn(process.execPath, ['-e', '${KEEP}', process.argv[1]], { stdio: 'ignore' }); ${KEEP}`

const BENCH = `
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
const [, token, helper] = process.argv
const { killOnInterrupt, removeOnInterrupt } = await import(helper)
const dir = removeOnInterrupt(mkdtempSync(join(tmpdir(), 'interrupt-cleanup-')))
writeFileSync(join(dir, 'report.json'), '{')
killOnInterrupt(spawn(process.execPath, ['-e', ${JSON.stringify(WITH_WORKER)}, token], { detached: true, stdio: 'ignore' }))
killOnInterrupt(spawn(process.execPath, ['-e', '${KEEP}', token], { stdio: 'ignore' }))
console.log(dir)
${KEEP}
`

const tokens: string[] = []
afterEach(() => {
  for (const token of tokens.splice(0)) killProcessesWith(token)
})

test.for([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('%s removes the folder, kills both process trees, and exits with %i', async ([signal, exitCode]) => {
  const token = leftoverToken('interrupt-cleanup')
  tokens.push(token)
  const bench = spawn(process.execPath, ['--input-type=module', '-e', BENCH, token, HELPER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => bench.on('exit', (code) => resolve(code)))
  const dir = await new Promise<string>((resolve) =>
    bench.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  )
  expect(existsSync(dir)).toBe(true)
  // The bench, the grouped run and its worker, and the plain child.
  await expect.poll(() => processesWith(token).length).toBe(4)
  bench.kill(signal)
  expect(await exited).toBe(exitCode)
  expect(existsSync(dir)).toBe(false)
  await expect.poll(() => processesWith(token)).toEqual([])
})
