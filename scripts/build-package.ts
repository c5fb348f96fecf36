/**
 * Builds the installable package and packs it:
 *   npm run pack        → build/llm-testbench-<version>.tgz
 * The TypeScript sources compile to JavaScript with their declarations (Node does not strip types under
 * node_modules) in build/package/, laid out as the repository is, so that the files the code reads beside itself
 * (the sandbox's Python and Java servers, its Dockerfile, the judges) are where it looks. The package's
 * package.json is written here: the exports map, the command, and the runtime dependencies only (Vitest as a
 * peer; no node-<os>-<cpu> binary, which only this repository's own scripts use; test/platform/packaging.test.ts
 * keeps every package the code imports among the dependencies). Then `npm pack` makes the
 * tarball, and its size and file count are printed. The READMEs go with the pages they link to (docs/, CONTRIBUTING.md),
 * so that their links resolve inside the installed package. Nothing of test/, fixtures/ or the other scripts goes in.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { answerHelp } from './script-usage.ts'

const USAGE = `usage: npm run package [-- --out <dir>]
Builds the installable package in <dir>/package (default build/) and packs it to <dir>/llm-testbench-<version>.tgz.`
answerHelp(USAGE)

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DESTINATION = resolve(outArgument() ?? join(ROOT, 'build'))
const OUT = join(DESTINATION, 'package')
/** The folders whose code the package holds; every file in them but TypeScript sources is copied as it is. */
const SOURCE_FOLDERS = ['adapters', 'harness', 'reporters', 'suites']
/** Peers: the user's own Vitest runs the items; the UI is theirs to install. */
const PEERS = ['vitest', '@vitest/ui']
const OPTIONAL_PEERS = ['@vitest/ui']

interface RootManifest {
  name: string
  version: string
  description: string
  license: string
  engines: Record<string, string>
  dependencies: Record<string, string>
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as RootManifest

rmSync(OUT, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', OUT],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
)
for (const folder of SOURCE_FOLDERS) copyAssets(join(ROOT, folder))
for (const file of ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'LICENSE'])
  copyFileSync(join(ROOT, file), join(OUT, file))
// The pages the READMEs link to, and the template docs/own-benchmark.md starts a project from: read where installed.
cpSync(join(ROOT, 'docs'), join(OUT, 'docs'), { recursive: true })
writeFileSync(join(OUT, 'package.json'), `${JSON.stringify(packageManifest(), null, 2)}\n`)

const packed = npm(['pack', OUT, '--pack-destination', DESTINATION, '--json'])
const [result] = JSON.parse(packed) as Array<{
  filename: string
  size: number
  unpackedSize: number
  entryCount: number
}>
if (result === undefined) throw new Error(`npm pack printed no result: ${packed}`)
console.log(
  `${join(DESTINATION, result.filename)}: ${kib(result.size)} packed, ${kib(result.unpackedSize)} unpacked, ${result.entryCount} files`,
)

/** npm, as `npm run` ran us (npm_execpath) or else from PATH; its absence is one message, not a stack. */
function npm(args: string[]): string {
  const cli = process.env.npm_execpath
  const [file, argv] = cli?.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args]
  try {
    return execFileSync(file, argv, { cwd: ROOT, encoding: 'utf8' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    console.error('build-package: npm is not on PATH; run it as `npm run package`, or put npm on PATH.')
    process.exit(1)
  }
}

function outArgument(): string | undefined {
  const at = process.argv.indexOf('--out')
  if (at < 0) return undefined
  const value = process.argv[at + 1]
  if (value === undefined) throw new Error('--out needs a directory: node scripts/build-package.ts --out <dir>')
  return value
}

function packageManifest(): Record<string, unknown> {
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies).filter(([name]) => !PEERS.includes(name)),
  )
  const peerDependencies = Object.fromEntries(PEERS.map((name) => [name, manifest.dependencies[name]]))
  return {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    type: 'module',
    engines: manifest.engines,
    exports: {
      '.': { types: './index.d.ts', default: './index.js' },
      './package.json': './package.json',
    },
    types: './index.d.ts',
    bin: { 'llm-testbench': 'scripts/llm-testbench.js' },
    dependencies,
    peerDependencies,
    peerDependenciesMeta: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])),
  }
}

function copyAssets(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) copyAssets(path)
    else if (!entry.name.endsWith('.ts') && !entry.name.endsWith('.pyc')) {
      const target = join(OUT, relative(ROOT, path))
      mkdirSync(dirname(target), { recursive: true })
      copyFileSync(path, target)
    }
  }
}

function kib(bytes: number): string {
  return `${Math.round(bytes / 1024)} KiB`
}
