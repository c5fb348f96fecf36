import { spawn } from 'node:child_process'
import { parseModelList } from '../adapters/models/model-spec.ts'
import { ReplayAdapter } from '../adapters/models/answer-sources/replay.ts'
import { CACHE } from '../adapters/models/knobs.ts'
import { HTML_DIR, MODEL } from './knob-table.ts'
import { stopBeforeItems } from './stop-before-items.ts'
import { cacheDir, reportDir } from './knobs.ts'

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

/**
 * Checks what reading each knob cannot (reporters/all-knobs.ts reads every declared knob): MODEL's
 * replay files, and that the directories can be written. One line per problem, empty when all are good.
 */
export async function settingsProblems(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const problems: string[] = []
  const dirs: [string, string][] = [['TESTBENCH_REPORT_DIR', reportDir(env)]]
  if (CACHE.raw(env)?.toLowerCase() !== 'off') dirs.push(['TESTBENCH_CACHE_DIR', cacheDir(env)])
  const html = HTML_DIR.read(env)
  if (html !== undefined) dirs.push(['TESTBENCH_HTML_DIR', html])
  // The directories are probed by one child process, while the replay files are read here.
  const failures = unwritable(dirs.map(([, dir]) => dir))
  const model = MODEL.read(env)
  if (model !== undefined) problems.push(...(await modelProblems(model)))
  const failed = await failures
  for (const [index, [name, dir]] of dirs.entries()) {
    const failure = failed[index]
    if (failure !== undefined)
      problems.push(`${name}=${dir} cannot be written (${failure}): point ${name} at a directory you can write to.`)
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
 * Creates each directory and a probe file in it from one child process, so that a path on a file system that
 * hangs (under /proc, a dead network mount) fails within PROBE_TIMEOUT_MS instead of blocking the run. The child
 * answers one line per directory as it goes; a directory it has not answered for by then did not answer.
 */
function unwritable(dirs: readonly string[]): Promise<Array<string | undefined>> {
  const kernel = (dir: string): boolean =>
    dir === '/proc' || dir.startsWith('/proc/') || dir === '/sys' || dir.startsWith('/sys/')
  const answers: Array<string | undefined> = dirs.map((dir) =>
    kernel(dir) ? 'a kernel file system holds no files' : undefined,
  )
  const probed = dirs.flatMap((dir, index) => (kernel(dir) ? [] : [index]))
  if (probed.length === 0) return Promise.resolve(answers)
  const script = `
    const fs = require('node:fs'); const path = require('node:path');
    for (const dir of process.argv.slice(1)) {
      let failure = null
      try { fs.mkdirSync(dir, { recursive: true }); const probe = path.join(dir, '.testbench-write-probe-' + process.pid);
        fs.writeFileSync(probe, ''); fs.rmSync(probe) } catch (error) { failure = error.code ?? error.message }
      process.stdout.write(JSON.stringify(failure) + '\\n')
    }`
  return new Promise((done) => {
    const child = spawn(process.execPath, ['-e', script, ...probed.map((index) => dirs[index] ?? '')], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    let output = ''
    let settled = false
    const finish = (unanswered: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      const lines = output.split('\n').slice(0, -1)
      probed.forEach((index, position) => {
        const line = lines[position]
        answers[index] = line === undefined ? unanswered : ((JSON.parse(line) as string | null) ?? undefined)
      })
      done(answers)
    }
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)
    }, PROBE_TIMEOUT_MS)
    child.on('close', (code) => finish(`the probe ended with exit ${code}`))
    child.on('error', (error) => finish(error.message))
  })
}
