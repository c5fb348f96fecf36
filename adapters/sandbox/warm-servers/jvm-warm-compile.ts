import { classify } from '../classify.ts'
import type { WarmJavac } from './jvm-warm-javac.ts'
import type { LanguageSpec } from '../languages.ts'
import type { Limits } from '../limits.ts'
import { CappedOutput } from '../output.ts'
import type { RunResult } from '../sandbox.ts'

/** What a class file's path may look like: a package path of Java identifiers, never `..` or absolute. */
const CLASS_PATH = /^(?:[\p{L}\p{N}_$]+\/)*[\p{L}\p{N}_$]+\.class$/u

/**
 * The compile step of a Java program on a warm javac: the same sources the cold step compiles (the main
 * file and every other .java file), class files by their paths in the work dir as `javac -d .` writes them.
 * Undefined when the warm javac could not do it (the caller compiles cold); `failed` when the program
 * did not compile, as the cold step reports it.
 */
export async function compileJavaWarm(
  javac: WarmJavac,
  files: Record<string, string>,
  main: string,
  spec: LanguageSpec,
  limits: Limits,
  marker: string | undefined,
): Promise<{ compileOutput: string; classes: Map<string, Buffer>; failed?: RunResult } | undefined> {
  const sources = Object.fromEntries(Object.entries(files).filter(([path]) => path === main || path.endsWith('.java')))
  const compiled = await javac.compile(sources, limits.wallMs)
  if (compiled === undefined) return undefined
  if (compiled.compiled) {
    for (const path of compiled.classes.keys()) if (!CLASS_PATH.test(path)) return undefined
    return { compileOutput: compiled.output, classes: compiled.classes }
  }
  const stderr = new CappedOutput(limits.outputBytes)
  stderr.push(Buffer.from(compiled.output))
  const ending = {
    step: 'compile' as const,
    exitCode: 1,
    signal: undefined,
    wallLimitHit: false,
    stderr: compiled.output,
    cpuMs: undefined,
    peakMemoryBytes: undefined,
    markerRequired: marker !== undefined,
    markerSeen: false,
  }
  const verdict = classify(ending, spec, limits)
  const failed: RunResult = {
    outcome: verdict.outcome,
    reason: verdict.reason,
    stdout: new CappedOutput(limits.outputBytes).capture(),
    stderr: stderr.capture(),
    exitCode: 1,
    signal: undefined,
    wallMs: compiled.wallMs,
    cpuMs: undefined,
    peakMemoryBytes: undefined,
    compileOutput: compiled.output,
    markerSeen: marker === undefined ? undefined : false,
  }
  return { compileOutput: compiled.output, classes: new Map(), failed }
}
