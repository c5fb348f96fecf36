import type { Limits } from './limits.ts'

export const LANGUAGES = ['python', 'javascript', 'java', 'rust', 'go', 'c', 'cpp', 'clojure'] as const
export type Language = (typeof LANGUAGES)[number]

/** Where each program a language needs lives, as seen from inside the sandbox. Each tier resolves its own. */
export interface Toolchain {
  python: string
  node: string
  java: string
  javac: string
  rustc: string
  go: string
  gcc: string
  gxx: string
  clojureJar: string
}
export type Tool = keyof Toolchain

export interface LanguageSpec {
  /** Default entry file. */
  main: string
  tools: readonly Tool[]
  /** argv of the compile step, run in the work dir; it must leave what `run` starts. */
  compile?: (tools: Toolchain, main: string, files: readonly string[], limits: Limits) => string[]
  run: (tools: Toolchain, main: string, limits: Limits) => string[]
  /** Extra environment; `home` is the work dir. */
  env?: (home: string) => Record<string, string>
  /** For languages without a compile step: whether stderr says the source never started running. */
  compileError?: (stderr: string) => boolean
  /** stderr that says the program ran out of memory (most runtimes report it before dying). */
  memoryError?: RegExp
  /** Address space the runtime reserves up front, allowed on top of `memoryBytes` (the heap itself is capped by a flag). */
  memoryHeadroomBytes?: number
  /**
   * RLIMIT_AS of a run is `memoryBytes + memoryHeadroomBytes` plus this: what the runtime maps besides its data
   * (code, libraries, thread stacks, arenas it reserves). RLIMIT_DATA counts private memory only; this limit
   * also counts shared mappings (`mmap(MAP_SHARED)`, a mapped /dev/zero or SysV segment), which would escape it.
   */
  addressSpaceHeadroomBytes: number
  /** A statement that prints `marker` on its own line, for the end of the checks. */
  printMarker: (marker: string) => string
}

const MiB = 1024 * 1024
const mebibytes = (bytes: number): number => Math.max(16, Math.floor(bytes / MiB))
const MARKER_FORMAT = /^[A-Za-z0-9_-]+$/
const sourcesEndingWith = (files: readonly string[], ...extensions: string[]): string[] =>
  files.filter((file) => extensions.some((extension) => file.endsWith(extension)))

// The class space and code cache are reserved whole (1 GiB and 240 MiB by default): smaller ones let the JVM start under RLIMIT_AS.
const jvmFlags = (limits: Limits): string[] => [
  `-Xmx${mebibytes(limits.memoryBytes)}m`,
  '-Xms16m',
  '-Xss8m',
  '-XX:+UseSerialGC',
  '-XX:-UsePerfData',
  '-XX:CompressedClassSpaceSize=128m',
  '-XX:ReservedCodeCacheSize=64m',
]
const JVM_OUT_OF_MEMORY = /java\.lang\.OutOfMemoryError|Could not reserve enough space|Cannot allocate memory/

export const LANGUAGE_SPECS: Readonly<Record<Language, LanguageSpec>> = {
  python: {
    main: 'main.py',
    tools: ['python'],
    run: (t, main) => [t.python, main],
    // A SyntaxError while compiling the file comes without a traceback; one raised by running code has one.
    compileError: (stderr) =>
      /^(SyntaxError|IndentationError|TabError): /m.test(stderr) &&
      !stderr.includes('Traceback (most recent call last)'),
    memoryError: /^MemoryError\b/m,
    // Libraries' code (numpy, pandas, scipy: about 250 MiB) and thread stacks (8 MiB each).
    addressSpaceHeadroomBytes: 1024 * MiB,
    printMarker: (marker) => `print(${JSON.stringify(marker)}, flush=True)`,
  },
  javascript: {
    main: 'main.js',
    tools: ['node'],
    run: (t, main, limits) => [
      t.node,
      `--max-old-space-size=${mebibytes(limits.memoryBytes)}`,
      '--stack-size=4096',
      main,
    ],
    // Node's loader raises a SyntaxError from its own frames when the file does not parse.
    compileError: (stderr) => /^SyntaxError: [^\n]*\n\s+at [^\n]*node:internal\//m.test(stderr),
    memoryError: /JavaScript heap out of memory|Fatal process out of memory|Allocation failed/,
    memoryHeadroomBytes: 1024 * MiB,
    addressSpaceHeadroomBytes: 1024 * MiB,
    printMarker: (marker) => `console.log(${JSON.stringify(marker)});`,
  },
  java: {
    main: 'Main.java',
    tools: ['java', 'javac'],
    compile: (t, main, files, limits) => [
      t.javac,
      `-J-Xmx${mebibytes(limits.memoryBytes)}m`,
      '-J-Xms16m',
      '-J-XX:+UseSerialGC',
      '-J-XX:TieredStopAtLevel=1',
      '-J-XX:-UsePerfData',
      '-encoding',
      'UTF-8',
      '-d',
      '.',
      ...new Set([main, ...sourcesEndingWith(files, '.java')]),
    ],
    run: (t, main, limits) => [
      t.java,
      ...jvmFlags(limits),
      '-cp',
      '.',
      main.replace(/\.java$/, '').replaceAll('/', '.'),
    ],
    memoryError: JVM_OUT_OF_MEMORY,
    memoryHeadroomBytes: 512 * MiB,
    addressSpaceHeadroomBytes: 1024 * MiB,
    printMarker: (marker) => `System.out.println(${JSON.stringify(marker)});`,
  },
  rust: {
    main: 'main.rs',
    tools: ['rustc'],
    compile: (t, main) => [t.rustc, '-O', '--edition', '2021', '-o', 'main', main],
    run: () => ['./main'],
    memoryError: /memory allocation of \d+ bytes failed/,
    addressSpaceHeadroomBytes: 256 * MiB,
    printMarker: (marker) => `println!(${JSON.stringify(marker)});`,
  },
  go: {
    main: 'main.go',
    tools: ['go'],
    compile: (t, main, files) => [t.go, 'build', '-o', 'main', ...new Set([main, ...sourcesEndingWith(files, '.go')])],
    run: () => ['./main'],
    // The build cache in /tmp (the compile step's tmpfs), not in the work dir the run gets a copy of.
    env: () => ({
      GOCACHE: '/tmp/go-build',
      GOPATH: '/tmp/go',
      GOTOOLCHAIN: 'local',
      GOPROXY: 'off',
      GOFLAGS: '-mod=mod',
      CGO_ENABLED: '0',
    }),
    memoryError: /fatal error: (runtime: )?out of memory|cannot allocate memory/,
    // The runtime reserves arenas and their metadata well ahead of use.
    addressSpaceHeadroomBytes: 1024 * MiB,
    printMarker: (marker) => `fmt.Println(${JSON.stringify(marker)})`,
  },
  c: {
    main: 'main.c',
    tools: ['gcc'],
    compile: (t, main, files) => [
      t.gcc,
      '-O2',
      '-std=gnu17',
      '-o',
      'main',
      ...new Set([main, ...sourcesEndingWith(files, '.c')]),
      '-lm',
    ],
    run: () => ['./main'],
    // strerror(ENOMEM), as perror() prints it after a failed malloc.
    memoryError: /Cannot allocate memory/,
    addressSpaceHeadroomBytes: 256 * MiB,
    printMarker: (marker) => `printf("%s\\n", ${JSON.stringify(marker)}); fflush(stdout);`,
  },
  cpp: {
    main: 'main.cpp',
    tools: ['gxx'],
    compile: (t, main, files) => [
      t.gxx,
      '-O2',
      '-std=gnu++17',
      '-o',
      'main',
      ...new Set([main, ...sourcesEndingWith(files, '.cpp', '.cc', '.cxx')]),
    ],
    run: () => ['./main'],
    memoryError: /std::bad_alloc|Cannot allocate memory/,
    addressSpaceHeadroomBytes: 256 * MiB,
    printMarker: (marker) => `std::cout << ${JSON.stringify(marker)} << std::endl;`,
  },
  clojure: {
    main: 'main.clj',
    tools: ['java', 'clojureJar'],
    // Clojure's own start-up is most of a run: the quick JIT (C1) alone starts it faster.
    run: (t, main, limits) => [
      t.java,
      ...jvmFlags(limits),
      '-XX:TieredStopAtLevel=1',
      '-cp',
      t.clojureJar,
      'clojure.main',
      main,
    ],
    compileError: (stderr) => /^Syntax error (reading source|compiling|macroexpanding)/m.test(stderr),
    memoryError: JVM_OUT_OF_MEMORY,
    memoryHeadroomBytes: 512 * MiB,
    addressSpaceHeadroomBytes: 1024 * MiB,
    printMarker: (marker) => `(println ${JSON.stringify(marker)})`,
  },
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

export function languageSpec(language: Language): LanguageSpec {
  const spec = LANGUAGE_SPECS[language]
  if (spec === undefined) {
    throw new RangeError(`Unknown sandbox language "${String(language)}"; use one of ${LANGUAGES.join(', ')}.`)
  }
  return spec
}

/** The statement that prints the success marker in `language`: the last line of a suite's checks. */
export function printMarker(language: Language, marker: string): string {
  if (!MARKER_FORMAT.test(marker))
    throw new RangeError(`Marker "${marker}" has characters that need quoting; markers come from newMarker().`)
  return languageSpec(language).printMarker(marker)
}
