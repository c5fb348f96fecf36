import { closestName, type KnobDeclaration } from '../adapters/knob.ts'
import { sandboxKnobs } from '../adapters/sandbox/knobs.ts'

/** The run-wide knobs the harness reads (harness/knobs.ts). */
export const harnessKnobs: readonly KnobDeclaration[] = [
  { name: 'MODEL', kind: 'text', default: 'none', accepted: 'provider:model, comma-separated for several', readme: 'Which model(s) answer.' },
  { name: 'SAMPLES', kind: 'integer', default: '1', accepted: 'a whole number ≥ 1', readme: 'Answers per item (pass@k).' },
  { name: 'TESTBENCH_DATA_DIR', kind: 'path', default: 'download', accepted: 'a directory of dataset files', readme: 'Read datasets from here instead of downloading.' },
  { name: 'TESTBENCH_CACHE_DIR', kind: 'path', default: '.testbench/cache', accepted: 'a writable directory', readme: 'Where replies are cached.' },
  { name: 'TESTBENCH_REPORT_DIR', kind: 'path', default: '.testbench/reports', accepted: 'a writable directory', readme: 'Where scores and records are written.' },
  { name: 'TESTBENCH_HTML_DIR', kind: 'path', default: 'none', accepted: 'a writable directory', readme: 'Where the HTML report is written.' },
  { name: 'TESTBENCH_CACHE', kind: 'choice', default: 'on', accepted: 'on, off or refresh', readme: 'Reuse, skip or refresh cached replies.' },
  { name: 'TESTBENCH_REQUEST_TIMEOUT', kind: 'integer', default: '600', accepted: 'seconds, a whole number ≥ 1', readme: 'Time limit per model request.' },
  { name: 'TESTBENCH_RETRIES', kind: 'integer', default: '4', accepted: 'a whole number ≥ 0', readme: 'Retries per failed request.' },
  { name: 'TESTBENCH_CONCURRENCY', kind: 'integer', default: '8 (ollama: 2)', accepted: 'a whole number ≥ 1', readme: 'Requests in flight per provider.' },
  { name: 'TESTBENCH_PROMPT_MODE', kind: 'choice', default: 'chat', accepted: 'chat or completion', readme: 'Prompt form for the Python code suites.' },
  { name: 'TESTBENCH_GATE_CONFIG', kind: 'path', default: 'none', accepted: 'a gate config file', readme: 'Score gates checked after a run.' },
]

/** Suite knobs by name; each suite's options.ts reads and checks its own values. */
const suiteKnobNames: readonly string[] = [
  ...['HUMANEVAL', 'MBPP', 'BIGCODEBENCH'].flatMap((suite) =>
    ['VARIANTS', 'PROMPT_MODE', 'TIME_FLOOR', 'INPUT_TIME_FLOOR', 'TIME_FACTOR', 'MEMORY_MB', 'TEMPERATURE', 'SHA256'].map((knob) => `TESTBENCH_${suite}_${knob}`),
  ),
  ...['CALIBRATION_TIME_LIMIT', 'SPLIT', 'SUBSET', 'TASKS', 'VERSION'].map((knob) => `TESTBENCH_BIGCODEBENCH_${knob}`),
  ...['ANSWER_IN_CODE', 'ERA', 'LANGUAGES', 'OVERWRITE', 'PROBLEMS', 'RUN_TIMEOUT_MS', 'SCRAPE_DELAY_MS', 'SHA256'].map((knob) => `TESTBENCH_EULER_${knob}`),
  ...['LENGTH', 'MODE', 'PER_CLASS', 'SEED', 'SHUFFLE', 'SYSTEM', 'SYSTEM_FILE', 'TEMPLATE'].map((knob) => `TESTBENCH_FAREL_${knob}`),
  ...['CONCURRENCY', 'CONTEXT', 'CONTEXT_CHARS', 'DATASET', 'DATASET_FILE', 'EVALUATE', 'IMAGE_TEMPLATE', 'INSTANCES', 'MEMORY', 'NETWORK', 'REPOS_DIR', 'SHA256', 'TIMEOUT'].map(
    (knob) => `TESTBENCH_SWEBENCH_${knob}`,
  ),
]

export const allKnobs: readonly KnobDeclaration[] = [...harnessKnobs, ...sandboxKnobs]

export const knownKnobNames: readonly string[] = [...allKnobs.map((knob) => knob.name), ...suiteKnobNames]

/** One warning per set variable that looks like a knob but is none: a misspelled TESTBENCH_* name, or SAMPLE. */
export function unknownKnobWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  const known = new Set(knownKnobNames)
  const suspects = Object.keys(env).filter((name) => (name.startsWith('TESTBENCH_') || name === 'SAMPLE') && !known.has(name))
  return suspects.sort().map((name) => {
    const closest = closestName(name, knownKnobNames)
    const hint = closest === undefined ? 'see the README for the list of knobs' : `did you mean ${closest}?`
    return `${name} is set but no knob has that name, so it does nothing: ${hint}`
  })
}
