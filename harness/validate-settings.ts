import { spawn } from 'node:child_process'
import { positiveInteger, readBoolean } from '../adapters/knob.ts'
import { configuredTier } from '../adapters/sandbox/sandbox-tier.ts'
import { parseModelList } from '../adapters/models/model-spec.ts'
import { ReplayAdapter } from '../adapters/models/replay.ts'
import { stopBeforeItems } from './stop-before-items.ts'
import { cacheDir, cacheMode, idleTimeoutMs, maxRetries, providerConcurrency, reportDir, requestTimeoutMs, retryDelayMs, sampleCount } from './knobs.ts'

/** What the caller knows of the knobs beyond the run-wide ones: names that do nothing, and bad suite values. */
export interface KnobFindings {
  warnings: readonly string[]
  problems: readonly string[]
}

/** Warns once about knob names that do nothing, and stops the run with one message when any setting is bad. */
export async function checkSettings(knobs: KnobFindings, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  for (const warning of knobs.warnings) console.warn(`testbench: ${warning}`)
  const problems = [...new Set([...(await settingsProblems(env)), ...knobs.problems])]
  if (problems.length === 0) return
  stopBeforeItems(`The run's settings are not usable; nothing was asked or run:\n  ${problems.join('\n  ')}`)
}

/** Checks every run-wide knob before any item or request; returns one line per bad value (empty when all are good). */
export async function settingsProblems(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const problems: string[] = []
  const check = (read: () => unknown): void => {
    try {
      read()
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  if (env['MODEL'] !== undefined && env['MODEL'].trim() !== '') problems.push(...(await modelProblems(env['MODEL'])))
  check(() => sampleCount(env))
  check(() => cacheMode(env))
  check(() => requestTimeoutMs(env))
  check(() => maxRetries(env))
  check(() => idleTimeoutMs(env))
  check(() => retryDelayMs(env))
  check(() => providerConcurrency('any', env))
  check(() => readBoolean(env, 'TESTBENCH_PYTHON_WARM', true))
  check(() => readBoolean(env, 'TESTBENCH_JAVA_WARM', true))
  check(() => positiveInteger(env, 'TESTBENCH_SANDBOX_CONCURRENCY', 1))
  check(() => positiveInteger(env, 'TESTBENCH_SANDBOX_TMPFS_MB', 1))
  check(() => configuredTier(env))
  const dirs: [string, string][] = [['TESTBENCH_REPORT_DIR', reportDir(env)]]
  if (env['TESTBENCH_CACHE'] !== 'off') dirs.push(['TESTBENCH_CACHE_DIR', cacheDir(env)])
  if (env['TESTBENCH_HTML_DIR']) dirs.push(['TESTBENCH_HTML_DIR', env['TESTBENCH_HTML_DIR']])
  for (const [name, dir] of dirs) {
    const failure = await unwritable(dir)
    if (failure !== undefined) problems.push(`${name}=${dir} cannot be written (${failure}): point ${name} at a directory you can write to.`)
  }
  return problems
}

/** MODEL's form, and each replay file read and parsed: all offline, so before any request. */
async function modelProblems(value: string): Promise<string[]> {
  try {
    const problems: string[] = []
    for (const spec of parseModelList(value)) {
      if (spec.provider !== 'replay') continue
      await new ReplayAdapter(spec.model).preflight().catch((error: unknown) => problems.push((error as Error).message))
    }
    return problems
  } catch (error) {
    return [(error as Error).message]
  }
}

const PROBE_TIMEOUT_MS = 3000

/**
 * Creates the directory and a probe file in it from a child process, so that a path on a file system that hangs
 * (under /proc, a dead network mount) fails within PROBE_TIMEOUT_MS instead of blocking the run.
 */
function unwritable(dir: string): Promise<string | undefined> {
  if (dir === '/proc' || dir.startsWith('/proc/') || dir === '/sys' || dir.startsWith('/sys/')) {
    return Promise.resolve('a kernel file system holds no files')
  }
  const script = `
    const fs = require('node:fs'); const path = require('node:path'); const dir = process.argv[1];
    try { fs.mkdirSync(dir, { recursive: true }); const probe = path.join(dir, '.testbench-write-probe-' + process.pid);
      fs.writeFileSync(probe, ''); fs.rmSync(probe) } catch (error) { process.stdout.write(error.code ?? error.message); process.exit(1) }`
  return new Promise((done) => {
    const child = spawn(process.execPath, ['-e', script, dir], { stdio: ['ignore', 'pipe', 'ignore'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      done(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)
    }, PROBE_TIMEOUT_MS)
    child.on('close', (code) => {
      clearTimeout(timer)
      done(code === 0 ? undefined : output || `exit ${code}`)
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      done(error.message)
    })
  })
}
