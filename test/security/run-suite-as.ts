import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../support/run-vitest.ts'

/** Who "an ordinary user" is in these tests: nobody, whom root can become. */
export const UNPRIVILEGED = { uid: 65534, gid: 65534 } as const

export interface User {
  uid: number
  gid: number
}

/**
 * Runs PE-Bench (`vitest run suites/euler`) as `user` (undefined: as we are) with the caller's variables and none
 * of its TESTBENCH_EULER_* knobs. Vite's config loader writes no temp file, which another user could not.
 */
export function runEulerAs(
  user: User | undefined,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => key.startsWith('TESTBENCH_EULER_'))
      .map((key) => [key, undefined]),
  )
  const child = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--configLoader', 'runner', '--project', 'suites', 'suites/euler'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...clean, ...env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => {
    // A child that cannot start (EACCES) ends here, not in an uncaught error while the test waits on it.
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}` }))
    child.on('close', (code) => resolve({ code, output }))
  })
}

/**
 * Why `user` cannot run this checkout's Node and Vitest, or undefined when it can: a checkout inside a
 * directory other users cannot enter (`mktemp -d`, `/root`) is closed to them, whatever its own modes.
 */
export function cannotRunHere(user: User, checkout: string = REPO_ROOT): string | undefined {
  // By absolute paths, as Vitest reads them: the child's working directory is entered before it drops root.
  const vitest = join(checkout, 'node_modules', 'vitest', 'vitest.mjs')
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('node:fs').accessSync(${JSON.stringify(vitest)}, require('node:fs').constants.R_OK)`],
    {
      cwd: '/',
      uid: user.uid,
      gid: user.gid,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 30_000,
    },
  )
  if (probe.error === undefined && probe.status === 0) return undefined
  const detail =
    probe.error?.message ??
    probe.stderr
      .toString()
      .trim()
      .split('\n')
      .find((line) => line.includes('Error')) ??
    `exit ${probe.status}`
  return (
    `needs a checkout that uid ${user.uid} can enter, and ${checkout} is closed to it (${detail}): ` +
    'clone the repository under a directory other users can enter (not in /root or a mktemp -d directory), or chmod o+x its parent directories'
  )
}
