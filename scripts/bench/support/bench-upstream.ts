// Where a bench script finds an upstream evaluator: a variable names a git dir, a clone, or a plain copy of it; from
// a git history the pinned commit is exported into a temp dir, so that what runs is that commit whatever is checked
// out. Upstream code is never in this repository.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Upstream {
  /** The env variable that names it, e.g. BENCH_EVALPLUS_UPSTREAM. */
  variable: string
  /** owner/name on GitHub. */
  repository: string
  commit: string
  /** A file every copy of it has, relative to its root: how a wrong directory is told from a right one. */
  marker: string
}

/** The upstream's source tree at its pinned commit under `into`, or where a plain copy sits; throws saying how to get it. */
export function upstreamTree(upstream: Upstream, into: string, env: NodeJS.ProcessEnv = process.env): string {
  const source = env[upstream.variable]
  const get =
    `git clone https://github.com/${upstream.repository} and set ${upstream.variable} to the clone ` +
    `(a git dir, a clone, or a copy of commit ${upstream.commit})`
  if (source === undefined || source === '') throw new Error(`${upstream.variable} is not set: ${get}.`)
  const gitDir = existsSync(join(source, '.git')) ? join(source, '.git') : source
  const isGit = spawnSync('git', [
    '--git-dir',
    gitDir,
    'rev-parse',
    '--verify',
    '--quiet',
    `${upstream.commit}^{commit}`,
  ])
  if (isGit.status !== 0) {
    if (existsSync(join(source, upstream.marker))) return source
    throw new Error(`${upstream.variable}=${source} holds neither ${upstream.commit} nor ${upstream.marker}: ${get}.`)
  }
  const target = join(into, upstream.repository.replace('/', '+'))
  mkdirSync(target, { recursive: true })
  const archive = spawnSync('sh', [
    '-c',
    'git --git-dir="$1" archive "$2" | tar -x -C "$3"',
    'sh',
    gitDir,
    upstream.commit,
    target,
  ])
  if (archive.status !== 0 || !existsSync(join(target, upstream.marker)))
    throw new Error(`Cannot export ${upstream.repository} at ${upstream.commit} from ${source}:\n${archive.stderr}`)
  return target
}

/** The Python modules of `modules` that /usr/bin/python3 cannot import, one by one. */
export function missingPythonModules(modules: readonly string[], python = '/usr/bin/python3'): string[] {
  return modules.filter((module) => spawnSync(python, ['-c', `import ${module}`]).status !== 0)
}

/**
 * Stand-ins, under `dir`, for the modules of `standIns` (dotted names make packages) that /usr/bin/python3 cannot
 * import: an upstream imports them at start-up, on paths the bench never takes (each maps to what only calls it).
 * Anything of one that is called raises, naming it, so that a bench never runs on a stand-in by mistake. Returns the
 * modules stood in for.
 */
export function writeStandIns(dir: string, bench: string, standIns: Readonly<Record<string, string>>): string[] {
  const missing = missingPythonModules(Object.keys(standIns))
  for (const module of missing) {
    const parts = module.split('.')
    for (let depth = 1; depth < parts.length; depth++) {
      const packageDir = join(dir, ...parts.slice(0, depth))
      mkdirSync(packageDir, { recursive: true })
      if (!existsSync(join(packageDir, '__init__.py'))) writeFileSync(join(packageDir, '__init__.py'), '')
    }
    mkdirSync(join(dir, ...parts.slice(0, -1)), { recursive: true })
    writeFileSync(
      join(dir, ...parts.slice(0, -1), `${parts.at(-1)}.py`),
      [
        'def __getattr__(name):',
        "    if name.startswith('__'):",
        '        raise AttributeError(name)',
        '    def unavailable(*args, **kwargs):',
        `        raise RuntimeError("${bench}: ${module}.%s was called, but ${module} is a stand-in for what only ${standIns[module]} calls" % name)`,
        '    return unavailable',
        '',
      ].join('\n'),
    )
  }
  return missing
}
