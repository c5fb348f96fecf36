import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const script = join(root, 'scripts/farel-export-csv.ts')
const md5 = (text: string) => createHash('md5').update(text).digest('hex')

/** The script runs on the Node that runs Vitest (Node 24, which runs .ts files as they are). */
function run(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TESTBENCH_FAREL_')))
  return execa(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...clean, ...env },
    extendEnv: false,
    reject: false,
  })
}

describe('scripts/farel-export-csv.ts', () => {
  test('prints the published set, whose md5 it checks', async () => {
    const result = await run([])
    expect(result.exitCode).toBe(0)
    expect(md5(`${result.stdout}\n`)).toBe('0b08876d7a221c9b9812ea85d746449a')
    expect(result.stderr).toContain('450 quizzes (python-compat seed 42, 50 per class, shuffled)')
    expect(result.stderr).toContain('This is the published set: the md5 matches.')
  })

  test('writes a file, and follows the TESTBENCH_FAREL_* variables', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'farel-csv-')), 'farel.csv')
    const result = await run([file], {
      TESTBENCH_FAREL_LENGTH: '2',
      TESTBENCH_FAREL_PER_CLASS: '3',
      TESTBENCH_FAREL_MODE: 'seedrandom',
    })
    expect(result.exitCode).toBe(0)
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(15)
    expect(lines.every((line) => /^[12],[a-z ]+,[1-3],".*"$/.test(line))).toBe(true)
    expect(result.stderr).not.toContain('published set')
  })

  test('a wrong option is one clear message and exit code 2', async () => {
    const result = await run([], { TESTBENCH_FAREL_SEED: 'forty-two' })
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toBe(
      'TESTBENCH_FAREL_SEED=forty-two is not accepted: use a whole number, or unset it for 42.',
    )
  })
})
