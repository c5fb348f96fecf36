import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GithubActionsReporter, type Vite, type VitestPluginContext } from 'vitest/node'
import { knobGroupProblems, unknownKnobWarnings } from './all-knobs.ts'
import { GateConfigError, gateConfigFile, loadGateConfig } from './gate/gate-config.ts'
import { GateReporter } from './gate/gate-reporter.ts'
import { itemNamePattern, rawTestNamePattern } from './item-name-pattern.ts'
import { declareOutcomeTags } from './outcome-tags.ts'
import { ProgressReporter } from './progress-reporter.ts'
import { RunFilesReporter } from './run-files-reporter.ts'
import { ScoreReporter } from './score-reporter.ts'
import { SandboxCheck } from './sandbox-check.ts'
import { SuiteDatasets } from './suite-datasets.ts'
import { HTML_DIR } from '../harness/knob-table.ts'
import { checkSettings } from '../harness/validate-settings.ts'
import type { SuiteDeclaration } from '../harness/suite-declaration.ts'
import {
  registerOwnSuites,
  suites as builtInSuites,
  SuiteDeclarationError,
  type BuiltInSuiteName,
} from '../suites/registry.ts'
import { benchmarkTestOptions } from './benchmark-project.ts'
import { PartSequencer } from './part-sequencer.ts'

export interface TestbenchPluginOptions {
  /**
   * The suites the project this plugin is in runs, when it is a project of your own: the name of a suite
   * llm-testbench brings (`'humaneval'`), or the declaration of one of yours, whose test files are in
   * `suites/<name>/` under the project's root. Given, the plugin also sets what a run of benchmark items needs
   * (the test files, the global setup, no test timeout, concurrency, part files sharing a worker).
   */
  suites?: ReadonlyArray<BuiltInSuiteName | SuiteDeclaration>
  /**
   * Projects whose test files are benchmark suites; the gate leaves runs without their files alone.
   * Default: `['suites']`, or the plugin's own project when `suites` is given.
   */
  benchmarkProjects?: string[]
}

/**
 * Adds the testbench's reporters to every run, whatever reporters the config or the command line
 * names: a `--reporter` flag replaces the configured reporters, but this hook runs after that
 * and before Vitest builds them, so the gate and the reports cannot be dropped by accident.
 * - the score reporter (scores, JSON/JSONL/text reports), the check that the sandbox works before a suite that
 *   runs programs starts (reporters/sandbox-check.ts), and the one that fetches and checks each suite's
 *   dataset once before any file starts (reporters/suite-datasets.ts);
 * - without a terminal, the progress reporter (done/total, score so far and time left per suite, every 5 % or 10 s);
 * - the one that tells the run's batch server which test files are yet to start (reporters/run-files-reporter.ts);
 * - the gate reporter, when a gate config is found (TESTBENCH_GATE_CONFIG, else `testbench.gate.json`);
 *   a config with a mistake stops the run before any item is asked; on GitHub Actions it annotates
 *   by its verdict, in place of Vitest's `github-actions` reporter (which makes every wrong answer an error);
 * - Vitest's html reporter as one self-contained file, `<TESTBENCH_HTML_DIR>/index.html`, when that
 *   variable is set (not in a shard: the run that merges the shards writes it).
 * It also reads `-t` as typed, so that `-t 0001` selects item 0001 only (reporters/item-name-pattern.ts),
 * and declares the outcomes as tags, so that the UI and the html report filter items by outcome (`tag:timeout`).
 */
export function testbench(options: TestbenchPluginOptions = {}): Vite.Plugin {
  const listed = options.suites === undefined ? undefined : listedSuites(options.suites)
  if (listed) registerOwnSuites(listed.own)
  return {
    name: 'llm-testbench',
    config(config) {
      if (!listed) return undefined
      const root = resolve(config.test?.root ?? config.root ?? process.cwd())
      return {
        test: {
          ...benchmarkTestOptions(suiteFiles(listed, root)),
          // Only the listed suites' files are included; the package's own are under node_modules.
          exclude: ['**/.git/**'],
          sequence: { sequencer: PartSequencer },
        },
      }
    },
    async configureVitest({ vitest, project }: VitestPluginContext) {
      declareOutcomeTags(project.config)
      declareOutcomeTags(vitest.config)
      const reporters = vitest.config.reporters
      // Called once per project: add the reporters once.
      if (reporters.some((reporter) => reporter instanceof ScoreReporter)) return
      selectItemsAsTyped(vitest.config)
      reporters.push(
        new ScoreReporter(),
        new SandboxCheck(),
        new SuiteDatasets(),
        new ProgressReporter(),
        new RunFilesReporter(),
      )
      const gate = gateReporter(
        vitest.config.root,
        options.benchmarkProjects ?? (listed ? [project.config.name ?? ''] : undefined),
      )
      if (gate) {
        reporters.push(gate)
        // The gate annotates on GitHub Actions by its verdict; Vitest's reporter would make every wrong answer an error.
        for (let index = reporters.length - 1; index >= 0; index--)
          if (isGithubActionsReporter(reporters[index])) reporters.splice(index, 1)
      }
      const htmlDir = HTML_DIR.read()
      const htmlConfigured = reporters.some((reporter) => Array.isArray(reporter) && reporter[0] === 'html')
      if (htmlDir && !vitest.config.shard && !htmlConfigured)
        reporters.push(['html', { singleFile: true, outputDir: resolve(htmlDir) }])
      // Last, after the reporters are in place (the guard above is synchronous); before any file is collected,
      // so a bad setting is the run's only message.
      await checkSettings({ warnings: unknownKnobWarnings(), problems: knobGroupProblems() })
    },
  }
}

interface ListedSuites {
  builtIn: BuiltInSuiteName[]
  own: SuiteDeclaration[]
}

function listedSuites(listed: ReadonlyArray<BuiltInSuiteName | SuiteDeclaration>): ListedSuites {
  const builtIn: BuiltInSuiteName[] = []
  const own: SuiteDeclaration[] = []
  for (const suite of listed) {
    if (typeof suite !== 'string') own.push(suite)
    else if (builtInSuites.some((declared) => declared.name === suite)) builtIn.push(suite)
    else
      throw new SuiteDeclarationError(
        `testbench({ suites }) in vitest.config.ts: "${suite}" is not a suite llm-testbench brings (${builtInSuites.map((declared) => declared.name).join(', ')}); declare a suite of your own as { name, title, runsPrograms }.`,
      )
  }
  return { builtIn, own }
}

/** The test files of the listed suites, relative to the project's root as Vitest's `include` takes them. */
function suiteFiles(listed: ListedSuites, root: string): string[] {
  const packageSuites = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'suites')
  const files = '*.test.{ts,js}'
  return [
    ...listed.own.map((suite) => `suites/${suite.name}/**/${files}`),
    ...listed.builtIn.map((suite) => `${relative(root, resolve(packageSuites, suite)).split('\\').join('/')}/${files}`),
  ]
}

function isGithubActionsReporter(reporter: unknown): boolean {
  return (
    reporter === 'github-actions' ||
    (Array.isArray(reporter) && reporter[0] === 'github-actions') ||
    reporter instanceof GithubActionsReporter
  )
}

/** Replaces the pattern Vitest parsed from `-t` (a number, for `-t 0001`) with the one the value as typed stands for. */
function selectItemsAsTyped(config: { testNamePattern?: RegExp | undefined }): void {
  const raw = rawTestNamePattern(process.argv)
  if (config.testNamePattern !== undefined && raw !== undefined) config.testNamePattern = itemNamePattern(raw)
}

function gateReporter(root: string, benchmarkProjects: string[] | undefined): GateReporter | undefined {
  try {
    const file = gateConfigFile(process.env, root)
    if (!file) return undefined
    return new GateReporter({ config: loadGateConfig(file, root), ...(benchmarkProjects ? { benchmarkProjects } : {}) })
  } catch (error) {
    // The message names the file, the key and the fix; a stack trace would only bury it.
    if (error instanceof GateConfigError) error.stack = `${error.name}: ${error.message}`
    throw error
  }
}
