import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, resolve, sep } from 'node:path'

/**
 * What a sandboxed program (and its compile step) sees of the host: the system's toolchain
 * directories and the few `/etc` files that runtimes read, all read-only, and nothing else.
 * The data dir, the reply cache, reports, the project, homes, `/run`, `/var` and the host's `/tmp`
 * are not there, so neither is the answer key.
 */

/** The system's programs and libraries. On a merged-/usr system the rest are symlinks into /usr. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const

/**
 * `/etc` entries that compilers, interpreters and their libraries read: the dynamic loader,
 * `alternatives` (Debian's /usr/bin/java is a link through it), users and groups for getpwuid,
 * time zones, locales, the JVM's and Python's own config, TLS roots, MIME and magic tables,
 * fonts (matplotlib). Left out on purpose: files that may hold credentials (npmrc, pip.conf,
 * gitconfig, environment, ssh, shadow, apt's auth) and everything else.
 */
const ETC_ENTRIES = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'gai.conf',
  'localtime',
  'timezone',
  'locale.alias',
  'os-release',
  'debian_version',
  'ssl',
  'ca-certificates',
  'mime.types',
  'magic',
  'magic.mime',
  'protocols',
  'services',
  'fonts',
  'matplotlibrc',
  'xml',
  'sgml',
] as const
/** Versioned config dirs: /etc/java-17-openjdk (the JDK's conf/ links into it), /etc/python3.11. */
const ETC_PATTERNS = [/^java-\d+-openjdk$/, /^python3(\.\d+)?$/, /^ImageMagick-\d+$/]

/** bwrap arguments that build the sandbox's root: system dirs, `/etc` entries and the tools' own install dirs. */
export function rootMounts(
  tools: readonly string[],
  hidden: readonly string[],
  etcEntries: readonly string[] = listEtc(),
): string[] {
  const args: string[] = []
  const bound: string[] = []
  for (const dir of SYSTEM_DIRS) {
    const kind = entryKind(dir)
    if (kind === 'symlink') args.push('--symlink', readlinkSync(dir), dir)
    else if (kind === 'dir') {
      args.push('--ro-bind', dir, dir)
      bound.push(dir)
    }
  }
  // Dirs bwrap makes for a mount point are its own (0700 as root): a program's throwaway uid could not pass them.
  const made = new Set<string>()
  const parents = (path: string): void => {
    for (const dir of ancestors(path)) {
      if (made.has(dir) || bound.some((outer) => dir === outer || dir.startsWith(outer + sep))) continue
      made.add(dir)
      args.push('--perms', '0755', '--dir', dir)
    }
  }
  for (const entry of etcEntries) {
    parents(`/etc/${entry}`)
    args.push('--ro-bind', `/etc/${entry}`, `/etc/${entry}`)
  }
  for (const prefix of toolPrefixes(tools)) {
    if (bound.some((dir) => prefix === dir || prefix.startsWith(dir + sep))) continue
    parents(prefix)
    args.push('--ro-bind', prefix, prefix)
    bound.push(prefix)
  }
  // A tool installed in a directory that also holds data (a venv in the project, a JDK in $HOME) brings only itself.
  for (const path of hidden) {
    if (!bound.some((dir) => path.startsWith(dir + sep))) continue
    if (entryKind(path) === 'dir') args.push('--tmpfs', path)
  }
  return args
}

/** The `/etc` entries of ETC_ENTRIES and ETC_PATTERNS that exist on this host. */
export function listEtc(): string[] {
  etcCache ??= [...ETC_ENTRIES.filter((entry) => existsSync(`/etc/${entry}`)), ...etcMatching()]
  return etcCache
}
let etcCache: string[] | undefined

function etcMatching(): string[] {
  try {
    return readdirSync('/etc').filter((name) => ETC_PATTERNS.some((pattern) => pattern.test(name)))
  } catch {
    return []
  }
}

/**
 * Where each tool is installed, as the dirs to bind: `…/bin/tool` gives `…`, for the path as
 * given (a venv's `bin/python` next to its `pyvenv.cfg` and packages) and for its real file.
 */
export function toolPrefixes(tools: readonly string[]): string[] {
  const prefixes = new Set<string>()
  for (const tool of tools) {
    if (!tool.startsWith('/') || !existsSync(tool)) continue
    for (const path of [tool, realpathSync(tool)]) {
      const dir = dirname(path)
      prefixes.add(dir.endsWith('/bin') ? dirname(dir) : path)
    }
  }
  // A prefix inside another is covered by it.
  const sorted = [...prefixes].sort((a, b) => a.length - b.length)
  return sorted.filter((prefix, index) => !sorted.slice(0, index).some((outer) => prefix.startsWith(outer + sep)))
}

/**
 * Host paths to keep out even where a bound dir contains them: the run's data, cache and report
 * dirs, the project, the user's home, and the host's own /tmp, /run and /var/tmp.
 */
export function hiddenHostPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const named = [env['TESTBENCH_DATA_DIR'], env['TESTBENCH_CACHE_DIR'], env['TESTBENCH_REPORT_DIR']].filter(
    (path): path is string => path !== undefined && path !== '',
  )
  const paths = [
    ...named.map((path) => resolve(path)),
    projectDir(),
    homedir(),
    '/root',
    '/home',
    '/run',
    '/tmp',
    '/var/tmp',
  ]
  return [...new Set(paths.filter((path): path is string => path !== undefined && path !== '/'))]
}

/** The harness's own project dir (it may hold .env files and cached replies), unless it holds the system. */
function projectDir(): string | undefined {
  const cwd = resolve(process.cwd())
  const depth = cwd.split(sep).filter((part) => part !== '').length
  return depth >= 2 && !cwd.startsWith('/usr/') ? cwd : undefined
}

/** `/a/b/c` gives `/a`, `/a/b`. */
function ancestors(path: string): string[] {
  const parts = path.split(sep).filter((part) => part !== '')
  return parts.slice(0, -1).map((_, index) => sep + parts.slice(0, index + 1).join(sep))
}

function entryKind(path: string): 'dir' | 'symlink' | 'other' | 'missing' {
  try {
    const stat = lstatSync(path)
    return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'dir' : 'other'
  } catch {
    return 'missing'
  }
}
