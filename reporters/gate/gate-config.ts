import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { GATE_CONFIG } from '../../harness/knob-table.ts'
import type { RunReport } from '../run-report.ts'
import { readSavedReport, SavedReportError } from '../saved-reports/saved-report.ts'

/**
 * The model gate's configuration, a JSON file (`testbench.gate.json` at the repo root, or
 * wherever TESTBENCH_GATE_CONFIG points; `TESTBENCH_GATE_CONFIG=off` turns the gate off):
 *
 * ```json
 * {
 *   "model": "ollama:qwen2.5:7b",
 *   "alpha": 0.05,
 *   "suites": {
 *     "farel": {
 *       "minimum": { "FaRel-3": 80 },
 *       "baseline": "baselines/farel.json",
 *       "models": { "openai:gpt-4o": { "minimum": { "FaRel-3": 90 } } }
 *     }
 *   }
 * }
 * ```
 * - `model` (optional): the model the gate is for, what CI sets MODEL to; it must have run.
 * - `alpha` (default 0.05): significance level of the exact McNemar test against a baseline.
 * - `suites.<suite>.minimum`: the least value of each named score (the suite's own score names).
 * - `suites.<suite>.baseline`: a saved JSON report of the current model on this suite, relative
 *   to this file; a run significantly worse on the same items fails.
 * - `suites.<suite>.maxDrop` (optional, points, with a baseline): the verdict is on the paired 95% interval
 *   of this run − the baseline instead of the p-value: a run fails when the whole interval is below
 *   −maxDrop, i.e. it dropped by more than maxDrop points with 95% confidence.
 * - `suites.<suite>.models.<model>`: that model's own `minimum` (merged over the suite's), `baseline` or `maxDrop`.
 * Every suite listed must run. Keys starting with `$` are comments.
 */
export interface GateConfig {
  /** The config file, as given (for messages). */
  file: string
  model?: string
  alpha: number
  suites: Record<string, SuiteGate>
}

export interface SuiteGate extends ModelGate {
  models: Record<string, ModelGate>
}

export interface ModelGate {
  minimum: Record<string, number>
  baseline?: Baseline
  /** Points: fail when the paired 95% interval of the change lies wholly below −maxDrop. */
  maxDrop?: number
}

export interface Baseline {
  /** The path as the config gives it. */
  file: string
  report: RunReport
}

export const DEFAULT_GATE_CONFIG = GATE_CONFIG.defaultValue
export const DEFAULT_ALPHA = 0.05

export class GateConfigError extends Error {
  override readonly name = 'GateConfigError'
}

/**
 * The gate config file to use: TESTBENCH_GATE_CONFIG (which must exist), else `testbench.gate.json`
 * in `root` if there is one; undefined when there is none or TESTBENCH_GATE_CONFIG=off.
 */
export function gateConfigFile(env: NodeJS.ProcessEnv = process.env, root: string = process.cwd()): string | undefined {
  const given = GATE_CONFIG.raw(env)
  if (given === 'off') return undefined
  if (given) {
    if (!existsSync(resolve(root, given))) {
      throw new GateConfigError(
        `TESTBENCH_GATE_CONFIG=${given}: there is no such file (looked at ${resolve(root, given)}). Give the path of the gate's JSON config, or off to run without a gate.`,
      )
    }
    return given
  }
  return existsSync(resolve(root, DEFAULT_GATE_CONFIG)) ? DEFAULT_GATE_CONFIG : undefined
}

/** Reads and checks a gate config and the baselines it names; every mistake is one message naming the file and key. */
export function loadGateConfig(file: string, root: string = process.cwd()): GateConfig {
  const path = resolve(root, file)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new GateConfigError(`${file}: cannot read the gate config as JSON (${reason}).`)
  }
  const fail = (where: string, problem: string): never => {
    throw new GateConfigError(`${file}: ${where} ${problem}`)
  }
  const top = object(parsed, 'the file', fail)
  keysAllowed(top, ['model', 'alpha', 'suites'], 'the file', fail)
  if (top.model !== undefined && (typeof top.model !== 'string' || top.model === ''))
    fail('"model"', 'must be a model label as in MODEL, e.g. "ollama:qwen2.5:7b".')
  const alpha = top.alpha ?? DEFAULT_ALPHA
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1))
    fail(
      '"alpha"',
      `must be a number between 0 and 1 (e.g. ${DEFAULT_ALPHA}, the default); it is ${JSON.stringify(top.alpha)}.`,
    )
  const suites = object(
    top.suites ??
      fail(
        '"suites"',
        'is missing: name at least one suite, e.g. "suites": { "farel": { "minimum": { "FaRel-3": 80 } } }.',
      ),
    '"suites"',
    fail,
  )
  const config: GateConfig = {
    file,
    alpha: alpha as number,
    suites: {},
    ...(typeof top.model === 'string' ? { model: top.model } : {}),
  }
  for (const [suite, value] of Object.entries(suites)) {
    if (suite.startsWith('$')) continue
    const where = `suites.${suite}`
    const entry = object(value, where, fail)
    keysAllowed(entry, ['minimum', 'baseline', 'maxDrop', 'models'], where, fail)
    const models: Record<string, ModelGate> = {}
    for (const [model, modelValue] of Object.entries(object(entry.models ?? {}, `${where}.models`, fail))) {
      if (model.startsWith('$')) continue
      const modelWhere = `${where}.models["${model}"]`
      const modelEntry = object(modelValue, modelWhere, fail)
      keysAllowed(modelEntry, ['minimum', 'baseline', 'maxDrop'], modelWhere, fail)
      models[model] = modelGate(modelEntry, suite, modelWhere, path, fail)
    }
    const suiteGate = { ...modelGate(entry, suite, where, path, fail), models }
    for (const [model, gate] of [['', suiteGate], ...Object.entries(models)] as const) {
      const hasBaseline = gate.baseline !== undefined || suiteGate.baseline !== undefined
      const allBaselines = hasBaseline || Object.values(models).some((each) => each.baseline !== undefined)
      if (gate.maxDrop !== undefined && !(model === '' ? allBaselines : hasBaseline))
        fail(
          `${where}${model === '' ? '' : `.models["${model}"]`}.maxDrop`,
          'needs a "baseline" report to compare with: give one, or take maxDrop out.',
        )
    }
    if (Object.keys(suiteGate.minimum).length === 0 && !suiteGate.baseline && Object.keys(models).length === 0) {
      fail(where, 'gates nothing: give it a "minimum" score, a "baseline" report, or both.')
    }
    config.suites[suite] = suiteGate
  }
  if (Object.keys(config.suites).length === 0) fail('"suites"', 'is empty: name at least one suite to gate.')
  return config
}

/** What the gate asks of one model on one suite: the suite's minimums with the model's own over them, and its baseline. */
export function gateFor(config: GateConfig, suite: string, model: string): ModelGate | undefined {
  const suiteGate = config.suites[suite]
  if (!suiteGate) return undefined
  const own = suiteGate.models[model]
  const baseline = own?.baseline ?? suiteGate.baseline
  const maxDrop = own?.maxDrop ?? suiteGate.maxDrop
  return {
    minimum: { ...suiteGate.minimum, ...own?.minimum },
    ...(baseline ? { baseline } : {}),
    ...(maxDrop === undefined ? {} : { maxDrop }),
  }
}

type Fail = (where: string, problem: string) => never

function modelGate(
  entry: Record<string, unknown>,
  suite: string,
  where: string,
  configPath: string,
  fail: Fail,
): ModelGate {
  const minimum: Record<string, number> = {}
  for (const [score, value] of Object.entries(object(entry.minimum ?? {}, `${where}.minimum`, fail))) {
    if (score.startsWith('$')) continue
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      fail(
        `${where}.minimum["${score}"]`,
        `must be a number, the least acceptable value of the score (it is ${JSON.stringify(value)}).`,
      )
    }
    minimum[score] = value as number
  }
  const maxDrop = entry.maxDrop
  if (maxDrop !== undefined && (typeof maxDrop !== 'number' || !(maxDrop >= 0 && maxDrop <= 100)))
    fail(
      `${where}.maxDrop`,
      `must be a number of points from 0 to 100 (e.g. 2: fail on a drop of more than 2 points with 95% confidence); it is ${JSON.stringify(maxDrop)}.`,
    )
  const drop = typeof maxDrop === 'number' ? { maxDrop } : {}
  if (entry.baseline === undefined) return { minimum, ...drop }
  if (typeof entry.baseline !== 'string' || entry.baseline === '')
    fail(`${where}.baseline`, 'must be the path of a saved JSON report, relative to the config file.')
  return {
    minimum,
    ...drop,
    baseline: {
      file: entry.baseline as string,
      report: baselineReport(entry.baseline as string, suite, where, configPath, fail),
    },
  }
}

function baselineReport(file: string, suite: string, where: string, configPath: string, fail: Fail): RunReport {
  const path = isAbsolute(file) ? file : resolve(dirname(configPath), file)
  if (!existsSync(path))
    fail(
      `${where}.baseline`,
      `names ${file}, which does not exist (looked at ${relative(process.cwd(), path) || path}). Save a report of the current model there: cp .testbench/reports/${suite}/<run>__<model>.json ${file}`,
    )
  let report: RunReport
  try {
    report = readSavedReport(path)
  } catch (error) {
    if (error instanceof SavedReportError) fail(`${where}.baseline`, error.message)
    throw error
  }
  if (report.benchmark !== suite) fail(`${where}.baseline`, `is a report of ${report.benchmark}, not of ${suite}.`)
  if (report.shard)
    fail(
      `${where}.baseline`,
      `is the report of shard ${report.shard.index}/${report.shard.count} only: use the report that --merge-reports wrote.`,
    )
  if (!report.complete)
    fail(`${where}.baseline`, 'is the report of a run that did not finish: use the report of a complete run.')
  return report
}

function object(value: unknown, where: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(where, `must be a JSON object ({ … }); it is ${JSON.stringify(value)}.`)
  return value as Record<string, unknown>
}

function keysAllowed(entry: Record<string, unknown>, allowed: string[], where: string, fail: Fail): void {
  for (const key of Object.keys(entry)) {
    if (!key.startsWith('$') && !allowed.includes(key))
      fail(where, `has the unknown key "${key}": the keys are ${allowed.map((name) => `"${name}"`).join(', ')}.`)
  }
}
