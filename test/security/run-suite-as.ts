import { spawn } from 'node:child_process'
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
export function runEulerAs(user: User | undefined, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(Object.keys(process.env).filter((key) => key.startsWith('TESTBENCH_EULER_')).map((key) => [key, undefined]))
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--configLoader', 'runner', '--project', 'suites', 'suites/euler'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...clean, ...env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

