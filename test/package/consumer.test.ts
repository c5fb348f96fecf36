/**
 * The package as a team installs it: `npm run package`'s tarball goes into a fresh project outside the repository
 * with `npm i -D <tarball> vitest`, next to the template's two files (docs/template: a vitest.config.ts and a suite
 * of its own). The project type-checks against the package's declarations, runs its own suite and HumanEval with
 * MODEL=reference, then its own suite against a loopback OpenAI-compatible server that gets half of it wrong, and
 * gets scores, JSON reports with the version, the gate's verdict and `npx llm-testbench compare`.
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative } from 'node:path'
import { rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'
import { brokenLinks, markdownFiles } from '../support/markdown-files.ts'
import { openaiChatHandler } from '../support/fake-openai.ts'
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts'
import { skipWithoutTool, TOOLS } from '../support/required-tool.ts'
import { isolationMissing } from '../support/sandbox-available.ts'
import { datasetOrSkip } from '../support/test-datasets.ts'
import { loadHumanEval } from '../../suites/humaneval/dataset.ts'
import type { RunReport } from '../../reporters/run-report.ts'
import { unpackTar } from '../../adapters/sandbox/container/tar.ts'

const run = promisify(execFile)
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string
  dependencies: Record<string, string>
}
/** The consumer's commands run on the Node that runs these tests (Vitest 5 needs 22.12 or later). */
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`
const MINUTES = 60_000

let work: string
let project: string
let tarball: string
let files: string[]

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'testbench-consumer-'))
  const { stdout } = await run(process.execPath, ['scripts/build-package.ts', '--out', work], {
    cwd: REPO_ROOT,
    env: { ...process.env, PATH },
  })
  tarball = join(work, `llm-testbench-${manifest.version}.tgz`)
  expect(stdout).toContain(tarball)
  // Read with the sandbox's own tar reader: the test needs no tar command.
  files = unpackTar(gunzipSync(readFileSync(tarball))).map((entry) => entry.name)
  project = join(work, 'project')
  cpSync(join(REPO_ROOT, 'docs', 'template'), project, { recursive: true })
  await run(
    'npm',
    [
      'install',
      '--save-dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      `vitest@${manifest.dependencies.vitest}`,
    ],
    { cwd: project, env: { ...process.env, PATH } },
  )
}, 10 * MINUTES)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 3 })
}, 2 * MINUTES)

describe('the tarball', () => {
  test('holds the code, its declarations and the files it reads, and nothing of the repository besides', () => {
    expect(files).toContain('package/index.js')
    expect(files).toContain('package/index.d.ts')
    expect(files).toContain('package/scripts/llm-testbench.js')
    expect(files).toContain('package/adapters/sandbox/warm-servers/python-fork-server.py')
    expect(files).toContain('package/suites/humaneval/humaneval-1.test.js')
    expect(files).toContain('package/CHANGELOG.md')
    const outside = files.filter(
      (file) => !/^package\/(adapters|harness|reporters|suites|docs)\//.test(file) && !/^package\/[^/]+$/.test(file),
    )
    expect(outside.sort()).toEqual(
      ['compare', 'failed-items', 'leaderboard', 'llm-testbench', 'script-usage'].flatMap((name) => [
        `package/scripts/${name}.d.ts`,
        `package/scripts/${name}.js`,
      ]),
    )
    // TypeScript only in the template a team copies (docs/template), which nothing imports.
    expect(
      files.filter(
        (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('package/docs/template/'),
      ),
    ).toEqual([])
    expect(files.filter((file) => /(^|\/)(test|fixtures)\//.test(file))).toEqual([])
    const packedBytes = readFileSync(tarball).byteLength
    expect(packedBytes, 'the tarball stays small: datasets and images are downloaded, never shipped').toBeLessThan(
      1024 * 1024,
    )
  })

  test('its pages link to files inside the installed package, where they are read', () => {
    const installed = join(project, 'node_modules/llm-testbench')
    const pages = markdownFiles(installed)
    expect(pages.map((page) => relative(installed, page))).toEqual(
      expect.arrayContaining(['README.md', 'docs/knobs.md', 'adapters/sandbox/README.md']),
    )
    for (const page of pages) expect(brokenLinks(page, installed), relative(installed, page)).toEqual([])
  })

  test("installs with its own dependencies: Vitest is the project's, and no Node binary comes with it", () => {
    const installed = readdirSync(join(project, 'node_modules'))
    expect(installed.filter((name) => /^node-(linux|darwin|win)-/.test(name))).toEqual([])
    const own = JSON.parse(readFileSync(join(project, 'node_modules/llm-testbench/package.json'), 'utf8')) as {
      dependencies: Record<string, string>
      peerDependencies: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    expect(own.peerDependencies.vitest).toBe(manifest.dependencies.vitest)
    expect(own.dependencies.vitest).toBeUndefined()
    expect(own.optionalDependencies).toBeUndefined()
  })

  test("the project's files type-check against the package's declarations", async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        include: ['vitest.config.ts', 'suites'],
      }),
    )
    await run(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', project])
  })
})

describe('a project of its own', () => {
  let server: LoopbackServer
  const reports = (suite: string): string[] =>
    (existsSync(join(project, '.testbench/reports', suite))
      ? readdirSync(join(project, '.testbench/reports', suite))
      : []
    )
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(project, '.testbench/reports', suite, name))
  const readReport = (file: string): RunReport => JSON.parse(readFileSync(file, 'utf8')) as RunReport
  const vitest = (args: string[], env: Record<string, string>) =>
    run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
      cwd: project,
      env: { ...process.env, PATH, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
      }),
    )

  beforeAll(async () => {
    // Right on `digits` and `primes`; on the other two it prints a wrong number.
    server = await startLoopbackServer(
      openaiChatHandler(['candidate'], (request) => {
        const right = /digits|prime/.test(request.body)
        return `\`\`\`python\nprint(${right ? (request.body.includes('digits') ? 115 : 168) : 7})\n\`\`\``
      }),
    )
  })
  afterAll(() => server?.close())

  test('runs its own suite with MODEL=reference: scores, a JSON report with the version', async (context) => {
    skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
    const { code, output } = await vitest(['suites/puzzles'], { MODEL: 'reference' })
    expect(code, output).toBe(0)
    expect(output).toContain('puzzles pass rate = 100.00% (solved 4/4)')
    const [puzzles] = reports('puzzles')
    expect(puzzles).toBeDefined()
    const report = readReport(puzzles ?? '')
    expect(report.testbench?.version).toBe(manifest.version)
    expect(report.scores.map((score) => [score.name, score.value])).toEqual([['puzzles pass rate', 1]])
    expect(report.items.map((item) => item.outcome)).toEqual(['passed', 'passed', 'passed', 'passed'])
  })

  test('runs HumanEval, a suite the package brings, by its name in the config', async (context) => {
    skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
    await datasetOrSkip(context, (env) => loadHumanEval('humaneval', env))
    const { code, output } = await vitest(['-t', 'HumanEval/(0|1|2) '], {
      MODEL: 'reference',
      TESTBENCH_HUMANEVAL_VARIANTS: 'humaneval',
      ...(process.env.TESTBENCH_DATA_DIR ? { TESTBENCH_DATA_DIR: process.env.TESTBENCH_DATA_DIR } : {}),
    })
    expect(code, output).toBe(0)
    expect(output).toContain('HumanEval pass@1 = 100.0% (solved 3/3), 95% interval 43.9–100.0%')
    expect(reports('humaneval')).toHaveLength(1)
  })

  test('a worse model through a loopback provider fails the gate, and compare says where', async (context) => {
    skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
    const [baseline] = reports('puzzles')
    if (baseline === undefined) return context.skip('the reference run before this one made no report to gate against')
    writeFileSync(
      join(project, 'testbench.gate.json'),
      JSON.stringify({ suites: { puzzles: { minimum: { 'puzzles pass rate': 0.75 }, baseline } } }),
    )
    const { code, output } = await vitest(['suites/puzzles'], {
      MODEL: 'openai:candidate',
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'test',
    })
    rmSync(join(project, 'testbench.gate.json'))
    expect(code, output).toBe(1)
    expect(output).toContain('puzzles pass rate = 50.00% (solved 2/4)')
    expect(output).toMatch(/Model gate \(testbench.gate.json\): FAILED/)
    const candidate = reports('puzzles').find((file) => file !== baseline) ?? ''
    const items = readReport(candidate).items
    expect(Object.fromEntries(items.map((item) => [item.itemId, item.outcome]))).toEqual({
      digits: 'passed',
      primes: 'passed',
      fibonacci: 'wrong_answer',
      multiples: 'wrong_answer',
    })

    const bin = join(project, 'node_modules/.bin/llm-testbench')
    const compared = await run(bin, ['compare', baseline, candidate], { cwd: project, env: { ...process.env, PATH } })
    expect(compared.stdout).toContain('puzzles pass rate')
    expect(compared.stdout).toContain('100.00%')
    expect(compared.stdout).toContain('50.00%')
    const failed = await run(bin, ['failed', candidate], { cwd: project, env: { ...process.env, PATH } })
    expect(failed.stdout).toMatch(/fibonacci/)
    expect(failed.stdout).toMatch(/multiples/)
    expect(failed.stdout).not.toMatch(/digits|primes/)
  })

  test('npx llm-testbench --help, -h, and each command with --help print their usage and exit 0', async () => {
    const bin = join(project, 'node_modules/.bin/llm-testbench')
    for (const args of [['--help'], ['-h'], ['compare', '--help'], ['failed', '-h'], ['leaderboard', '--help']]) {
      const { stdout, stderr } = await run(bin, args, { cwd: project, env: { ...process.env, PATH } })
      expect(stdout, args.join(' ')).toMatch(/^usage: llm-testbench /)
      expect(stderr, args.join(' ')).toBe('')
    }
  })
})

test('the template is the project docs/own-benchmark.md shows', () => {
  const page = readFileSync(join(REPO_ROOT, 'docs/own-benchmark.md'), 'utf8')
  for (const file of ['vitest.config.ts', 'suites/puzzles/puzzles.test.ts'])
    expect(page, `docs/own-benchmark.md shows docs/template/${file} as it is`).toContain(
      readFileSync(join(REPO_ROOT, 'docs/template', file), 'utf8').trim(),
    )
})
