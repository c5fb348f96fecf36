import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { afterAll, describe, expect, test } from 'vitest'
import { memoryCgroups } from '../../../../adapters/sandbox/process/memory-cgroup.ts'
import { ProcessSandbox } from '../../../../adapters/sandbox/process/process-sandbox.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'

const MiB = 1024 * 1024
const sandbox = new ProcessSandbox({ warmPython: false })
const warm = new ProcessSandbox({ warmPython: true })
afterAll(() => Promise.all([sandbox.close(), warm.close()]))

/** Eight processes of 160 MiB each: every one within the per-process rlimits of 256 MiB, 1.25 GiB together. */
const SPREAD_OUT = `
import os, time
children = []
for _ in range(8):
    pid = os.fork()
    if pid == 0:
        block = bytearray(160 << 20)
        for offset in range(0, len(block), 4096):
            block[offset] = 1
        time.sleep(3)
        os._exit(0)
    children.append(pid)
failed = sum(1 for pid in children if os.waitpid(pid, 0)[1] != 0)
print('children failed:', failed)
`

describe('memory cgroup (root, where the kernel has a memory controller)', () => {
  test.for([
    ['cold', sandbox],
    ['warm', warm],
  ] as const)(
    "%s: a run's processes together are held to its memory limit, not each to its own",
    async ([, runner], context) => {
      await skipWithoutSandbox(context)
      if (memoryCgroups() === undefined)
        context.skip('needs root and a cgroup memory controller (cgroup v1 memory or v2)')
      const result = await runner.run({
        language: 'python',
        files: { 'main.py': SPREAD_OUT },
        limits: { memoryBytes: 256 * MiB, wallMs: 20_000 },
      })
      // The kernel kills inside the run when all of it passes 256 MiB (plus the tmpfs it may fill): some children die.
      expect(result.stdout.text, result.stderr.text).not.toBe('children failed: 0\n')
      expect(['memory', 'runtime_error', 'wrong_answer', 'passed']).toContain(result.outcome)
    },
  )

  test("a cold run's cgroup is removed afterwards", async (context) => {
    await skipWithoutSandbox(context)
    const groups = memoryCgroups()
    if (groups === undefined) return context.skip('needs root and a cgroup memory controller (cgroup v1 memory or v2)')
    const parent =
      groups.version === 2
        ? `/sys/fs/cgroup/testbench-${process.pid}`
        : `/sys/fs/cgroup/memory/testbench-${process.pid}`
    // A warm server keeps its cgroup while it lives; a cold run's goes with the run.
    const runs = () => (existsSync(parent) ? readdirSync(parent).filter((name) => name.startsWith('run-')) : [])
    const before = runs()
    await sandbox.run({ language: 'python', files: { 'main.py': 'print(1)\n' } })
    expect(existsSync(parent)).toBe(true)
    expect(runs()).toEqual(before)
  })

  test('a process that exits with warm servers running leaves no cgroup behind', async (context) => {
    await skipWithoutSandbox(context)
    const groups = memoryCgroups()
    if (groups === undefined) return context.skip('needs root and a cgroup memory controller (cgroup v1 memory or v2)')
    const script = `import { ProcessSandbox } from ${JSON.stringify(new URL('../../../../adapters/sandbox/process/process-sandbox.ts', import.meta.url).href)}
const result = await new ProcessSandbox({ warmPython: true }).run({ language: 'python', files: { 'main.py': 'print(6 * 7)' } })
console.log(process.pid, result.stdout.text.trim())
process.exit(0)`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const [pid, printed] = child.stdout.trim().split(' ')
    expect(printed, child.stderr).toBe('42')
    expect(existsSync(`/sys/fs/cgroup/${groups.version === 2 ? '' : 'memory/'}testbench-${pid}`)).toBe(false)
  })
})
