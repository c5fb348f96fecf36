import { isAbsolute, normalize, sep } from 'node:path'
import type { RunResult, SourceFiles } from './sandbox.ts'

/** The request's files, with the marker filled in; their names and the ones to collect must stay inside the work dir. */
export function sourceFiles(
  files: SourceFiles,
  marker: string | undefined,
  collect: readonly string[] = [],
): { files: Record<string, string> } | { invalid: string } {
  const given = typeof files === 'function' ? files(marker ?? '') : files
  const entries = Object.entries(given)
  if (entries.length === 0) return { invalid: 'The run request has no files; give at least the main source file.' }
  for (const name of [...entries.map(([name]) => name), ...collect]) {
    if (leavesWorkDir(name))
      return { invalid: `File name "${name}" leaves the work dir; use a relative path like "main.py".` }
  }
  return { files: Object.fromEntries(entries) }
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
