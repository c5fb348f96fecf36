import type { KnobGroup } from '../adapters/knob.ts'

/** The run-wide knobs the harness reads (harness/knobs.ts). */
export const harnessKnobs: KnobGroup = {
  title: 'run',
  knobs: [
    { name: 'MODEL', kind: 'text', default: '—', accepted: 'provider:model, comma-separated for several', readme: 'the models to benchmark (see Models)' },
    { name: 'SAMPLES', kind: 'integer', default: '1', accepted: 'a whole number ≥ 1', readme: 'samples per item, each its own test (`… > HumanEval/0 has_close_elements sample 3`; samples count from 0, as in the records and replay files)' },
    { name: 'TESTBENCH_DATA_DIR', kind: 'path', default: '—', accepted: 'a directory laid out as `<dir>/<dataset>/<file>`', readme: 'read datasets from this directory instead of downloading them' },
    { name: 'TESTBENCH_CACHE_DIR', kind: 'path', default: '.testbench/cache', accepted: 'a writable directory', readme: 'replies, downloaded datasets, calibrations' },
    { name: 'TESTBENCH_CACHE', kind: 'choice', default: 'on', accepted: 'on, off or refresh', readme: '`on` reuses stored replies, `refresh` asks again and overwrites, `off` neither reads nor writes' },
    { name: 'TESTBENCH_REPORT_DIR', kind: 'path', default: '.testbench/reports', accepted: 'a writable directory', readme: 'reports, results files, screenshots' },
    { name: 'TESTBENCH_HTML_DIR', kind: 'path', default: '—', accepted: 'a writable directory', readme: "also write Vitest's single-file html report to `<dir>/index.html`" },
    { name: 'TESTBENCH_REQUEST_TIMEOUT', kind: 'integer', default: '600', accepted: 'seconds, a whole number ≥ 1', readme: 'seconds one model request may take, retries included' },
    { name: 'TESTBENCH_RETRIES', kind: 'integer', default: '4', accepted: 'a whole number ≥ 0', readme: 'retries after a connection error, 429 or 5xx' },
    { name: 'TESTBENCH_CONCURRENCY', kind: 'integer', default: '2 for Ollama, 8 otherwise', accepted: 'a whole number ≥ 1', readme: 'model requests in flight per provider, across all the workers of a run (of a machine, in a sharded run)' },
    { name: 'TESTBENCH_PROMPT_MODE', kind: 'choice', default: 'chat', accepted: 'chat or completion (base models)', readme: 'prompt form of the Python code suites' },
    { name: 'TESTBENCH_GATE_CONFIG', kind: 'path', default: 'testbench.gate.json if present', accepted: 'a gate config file, or off', readme: "the model gate's config" },
  ],
}
