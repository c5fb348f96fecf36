import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'

const run = promisify(execFile)

/** Every `npm run` script that is a file under scripts/, by its name: the ones a user passes arguments to. */
const NPM_SCRIPTS = Object.entries(
  (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
).flatMap(([name, command]) => {
  const file = /^node (scripts\/[\w/-]+\.ts)$/.exec(command)?.[1]
  return file === undefined ? [] : [{ name, file }]
})

/** The package's command and each of its commands, as `npx llm-testbench …` runs them. */
const COMMANDS = [[], ['compare'], ['failed'], ['leaderboard']].map((command) => ({
  name: ['llm-testbench', ...command].join(' '),
  file: 'scripts/llm-testbench.ts',
  command,
}))

async function help(file: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [file, ...args], { cwd: REPO_ROOT, timeout: 60_000 })
}

test('the npm scripts are found (the list below is not empty by mistake)', () => {
  expect(NPM_SCRIPTS.map((script) => script.name)).toEqual(
    expect.arrayContaining([
      'compare',
      'failed',
      'leaderboard',
      'farel:csv',
      'package',
      'sandbox:check',
      'bench:sandbox',
    ]),
  )
})

describe('--help', () => {
  test.concurrent.for(NPM_SCRIPTS)(
    'npm run $name -- --help prints its usage on stdout and exits 0',
    async ({ file }) => {
      const { stdout, stderr } = await help(file, ['--help'])
      expect(stdout).toMatch(/^usage: /)
      expect(stderr).toBe('')
    },
  )

  test.concurrent.for(COMMANDS)('$name --help prints its usage on stdout and exits 0', async ({ file, command }) => {
    const { stdout, stderr } = await help(file, [...command, '--help'])
    expect(stdout).toMatch(/^usage: llm-testbench /)
    expect(stderr).toBe('')
  })
})

// Every script answers both through scripts/script-usage.ts: -h is checked on the package's command and one script.
test.concurrent.for([
  { file: 'scripts/llm-testbench.ts', args: ['-h'] },
  { file: 'scripts/llm-testbench.ts', args: ['compare', '-h'] },
  { file: 'scripts/sandbox-check.ts', args: ['-h'] },
])('$file $args prints the same usage as --help', async ({ file, args }) => {
  const short = await help(file, args)
  const long = await help(
    file,
    args.map((arg) => (arg === '-h' ? '--help' : arg)),
  )
  expect(short.stdout).toMatch(/^usage: /)
  expect(short.stdout).toBe(long.stdout)
})

test('an argument a script does not take is refused with its usage and exit status 2', async () => {
  for (const [file, args] of [
    ['scripts/sandbox-check.ts', ['--nonsense']],
    ['scripts/llm-testbench.ts', ['--nonsense']],
    ['scripts/compare.ts', ['only-one.json']],
  ] as const) {
    const failed = await help(file, args).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    )
    expect(failed?.code, `${file} ${args.join(' ')}`).toBe(2)
    expect(failed?.stderr).toMatch(/usage: /)
  }
})
