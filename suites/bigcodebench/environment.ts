/**
 * What a BigCodeBench verdict depends on in this environment, asked of the sandbox's own Python:
 * the interpreter, and for each library the tasks import the installed versions of it and of
 * everything it requires (calibration's key: a task is calibrated again only when something it
 * imports changed); and which heavy libraries the warm interpreter can preload (installed, as
 * far as the import system can tell without importing them: one that then fails to import makes
 * the warm interpreter fall back to a fresh one per program, with a warning).
 */
import { runProgram, sandbox } from '../../adapters/sandbox/index.ts'
import { isRecord } from '../../harness/datasets/dataset-file.ts'

/**
 * Imported once by the warm interpreter instead of by each program, for the tasks that import the
 * library (the key): the libraries most tasks use, and the slow ones. matplotlib.pyplot always,
 * as every program's environment imports it (upstream_environment.py).
 */
const PRELOAD_CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  '': ['matplotlib.pyplot', 'unittest.mock', 'tempfile', 'subprocess'],
  numpy: ['numpy'],
  pandas: ['pandas'],
  scipy: ['scipy', 'scipy.stats'],
  sklearn: ['sklearn', 'sklearn.preprocessing', 'sklearn.model_selection', 'sklearn.linear_model'],
  seaborn: ['seaborn'],
  requests: ['requests'],
  bs4: ['bs4'],
  nltk: ['nltk'],
  statsmodels: ['statsmodels.api'],
}

export interface PythonEnvironment {
  /** The sandbox tier and the interpreter (version, path, machine). */
  interpreter: string
  /** Per library name (`pandas`, `os`): `stdlib`, `absent`, or the versions of its distributions and their requirements. */
  libraries: ReadonlyMap<string, string>
  /** What the warm interpreter preloads: the candidates for these libraries that are installed here. */
  preload: readonly string[]
}

const PROBE = `
import importlib, importlib.metadata as metadata, importlib.util, json, os, platform, re, sys
libraries, candidates = json.loads(sys.stdin.read() or '[[], []]')
providers = metadata.packages_distributions()

def closure(names):
    versions, todo = {}, list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r'[-_.]+', '-', name).lower()
        if key in versions:
            continue
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            versions[key] = None
            continue
        versions[key] = distribution.version
        for requirement in distribution.requires or []:
            if re.search(r'extra\\s*==', requirement):
                continue
            match = re.match(r'[A-Za-z0-9._-]+', requirement)
            if match:
                todo.append(match.group(0))
    return ' '.join(sorted(f'{key}=={version}' for key, version in versions.items() if version))

found = {}
for library in libraries:
    top = library.split('.')[0]
    if top in sys.stdlib_module_names:
        found[library] = 'stdlib'
    elif providers.get(top):
        found[library] = closure(providers[top])
    else:
        spec = importlib.util.find_spec(top)
        origin = spec and spec.origin
        found[library] = 'absent' if spec is None else f'unpackaged {origin} {os.stat(origin).st_mtime if origin and os.path.exists(origin) else ""}'
preload = [name for name in candidates if importlib.util.find_spec(name.split('.')[0]) is not None]
print(json.dumps({'interpreter': f'{sys.version} {sys.executable} {platform.machine()}', 'libraries': found, 'preload': preload}))
`

const probes = new Map<string, Promise<PythonEnvironment>>()

/** The environment for tasks that import `libraries`; asked once per set of names in a process. */
export function pythonEnvironment(libraries: readonly string[]): Promise<PythonEnvironment> {
  const names = [...new Set(libraries)].sort()
  const key = names.join(',')
  let probe = probes.get(key)
  if (probe === undefined) {
    probe = probeEnvironment(names)
    probes.set(key, probe)
    probe.catch(() => probes.delete(key))
  }
  return probe
}

async function probeEnvironment(libraries: readonly string[]): Promise<PythonEnvironment> {
  const ran = await runProgram({
    language: 'python',
    files: { 'main.py': PROBE },
    stdin: JSON.stringify([libraries, ['', ...libraries].flatMap((library) => PRELOAD_CANDIDATES[library] ?? [])]),
    limits: { wallMs: 180_000, cpuSeconds: 120, memoryBytes: 4096 * 1024 * 1024 },
  })
  const parsed: unknown = ran.outcome === 'passed' ? JSON.parse(ran.stdout.text) : undefined
  if (
    !isRecord(parsed) ||
    typeof parsed.interpreter !== 'string' ||
    !isRecord(parsed.libraries) ||
    !Array.isArray(parsed.preload)
  ) {
    throw new Error(
      `BigCodeBench could not ask the sandbox's Python which libraries it has (${ran.outcome}: ${ran.reason}). ${ran.stderr.text.slice(-500)}`,
    )
  }
  return {
    interpreter: `${sandbox().tier} ${parsed.interpreter}`,
    libraries: new Map(Object.entries(parsed.libraries).map(([name, versions]) => [name, String(versions)])),
    preload: parsed.preload.map(String),
  }
}
