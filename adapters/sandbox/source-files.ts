import { isAbsolute, normalize, sep } from 'node:path'
import type { RunRequest, RunResult } from './sandbox.ts'

const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The request's files, with the marker filled in, and its Python modules as the files a run that does not take
 * them ready finds beside the program (`<name>.py`); names must stay inside the work dir, as must those to collect.
 */
export function sourceFiles(
  request: Pick<RunRequest, 'files' | 'collect' | 'pythonModules'>,
  marker: string | undefined,
): { files: Record<string, string>; moduleFiles: Record<string, string> } | { invalid: string } {
  const given = typeof request.files === 'function' ? request.files(marker ?? '') : request.files
  const entries = Object.entries(given)
  if (entries.length === 0) return { invalid: 'The run request has no files; give at least the main source file.' }
  for (const name of [...entries.map(([name]) => name), ...(request.collect ?? [])]) {
    if (leavesWorkDir(name))
      return { invalid: `File name "${name}" leaves the work dir; use a relative path like "main.py".` }
  }
  const moduleFiles: Record<string, string> = {}
  for (const [name, source] of Object.entries(request.pythonModules ?? {})) {
    if (!MODULE_NAME.test(name))
      return {
        invalid: `Python module name "${name}" is not an identifier; name it as \`import\` would, like "driver".`,
      }
    if (`${name}.py` in given)
      return { invalid: `The run request has both a file ${name}.py and a Python module ${name}; give it once.` }
    moduleFiles[`${name}.py`] = source
  }
  return { files: Object.fromEntries(entries), moduleFiles }
}

function leavesWorkDir(name: string): boolean {
  const normal = normalize(name)
  return name === '' || isAbsolute(name) || normal === '..' || normal.startsWith(`..${sep}`)
}

const EMPTY = { text: '', truncated: false, bytes: 0 }

/** A result for when our side broke: the program is not to blame. */
export function infraFailure(reason: string, compileOutput?: string): RunResult {
  return {
    outcome: 'infra_error',
    reason,
    stdout: EMPTY,
    stderr: EMPTY,
    exitCode: null,
    signal: undefined,
    wallMs: 0,
    cpuMs: undefined,
    peakMemoryBytes: undefined,
    compileOutput,
    markerSeen: undefined,
  }
}
