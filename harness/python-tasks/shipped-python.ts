/**
 * The harness's own Python programs (the drivers) as files for the sandbox, compiled once per worker:
 * compiling a driver and its codec took 5 ms of every run, more than most HumanEval programs take.
 * For the process tier, the host's Python (the one that tier runs) compiles them once and marshals the
 * code objects, and a small main.py runs them in the sandbox when its interpreter is the same build;
 * the container tier's Python, or one of another build, compiles the sources shipped instead. The files are the
 * harness's, written before the program runs, so nothing the program does reaches them first.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { HostToolchain } from '../../adapters/sandbox/host-toolchain.ts'
import { sandbox } from '../../adapters/sandbox/index.ts'

const run = promisify(execFile)

export interface PythonSource {
  /** The module's name (`value_codec`), or `__main__` for the program itself. */
  name: string
  source: string
}

const LOADER = `import marshal
import sys
from binascii import a2b_base64

with open('compiled.b64') as _file:
    _version, _blob = _file.read().split('\\n', 1)
if _version == sys.version:
    _codes = marshal.loads(a2b_base64(_blob))
    for _name, _code in _codes.items():
        if _name != '__main__':
            _module = type(sys)(_name)
            _module.__file__ = _name + '.py'
            sys.modules[_name] = _module
            exec(_code, _module.__dict__)
    _main = _codes['__main__']
elif _version == 'none':
    with open('__main__.py') as _file:
        _main = compile(_file.read(), '__main__.py', 'exec')
else:
    sys.exit(f'testbench: the driver was compiled for Python {_version}, and the sandbox runs {sys.version}: set TESTBENCH_PYTHON to one interpreter for both.')
del _file, _version, _blob
exec(_main)
`

const COMPILE = `import base64, json, marshal, sys
sources = json.load(sys.stdin)
# optimize=2 leaves the docstrings out, a third of what every run would carry; the drivers have no asserts.
codes = {name: compile(source, name + '.py', 'exec', optimize=2) for name, source in sources.items()}
sys.stdout.write(sys.version + '\\n' + base64.b64encode(marshal.dumps(codes)).decode('ascii'))
`

const compiled = new Map<string, Promise<string | undefined>>()

/**
 * The files that run `main` with `modules` importable: main.py (the loader) and compiled.b64, or,
 * where the code cannot be compiled for the sandbox's interpreter, the sources (`__main__.py`, `<module>.py`).
 */
export async function shippedProgram(main: string, modules: readonly PythonSource[]): Promise<Record<string, string>> {
  const sources: Record<string, string> = {
    __main__: main,
    ...Object.fromEntries(modules.map((module) => [module.name, module.source])),
  }
  const key = JSON.stringify(sources)
  let blob = compiled.get(key)
  if (blob === undefined) {
    // Only the process tier runs the host's Python; the container tier's compiles the sources.
    blob = sandbox().tier === 'process' ? compile(sources) : Promise.resolve(undefined)
    compiled.set(key, blob)
  }
  return programFiles(sources, await blob)
}

/** The loader with the compiled code, or with the sources where there is none. */
export function programFiles(
  sources: Readonly<Record<string, string>>,
  compiledCode: string | undefined,
): Record<string, string> {
  if (compiledCode !== undefined) return { 'main.py': LOADER, 'compiled.b64': compiledCode }
  const files: Record<string, string> = { 'main.py': LOADER, 'compiled.b64': 'none\n' }
  for (const [name, source] of Object.entries(sources)) files[`${name}.py`] = source
  return files
}

/** The sources compiled by the host's Python, as compiled.b64 holds them; undefined without one. */
export async function compile(sources: Record<string, string>): Promise<string | undefined> {
  const python = new HostToolchain().resolve('python')
  if ('missing' in python) return undefined
  try {
    const child = run(python.path, ['-B', '-E', '-s', '-c', COMPILE], { maxBuffer: 16 * 1024 * 1024 })
    child.child.stdin?.end(JSON.stringify(sources))
    return (await child).stdout
  } catch {
    return undefined
  }
}
