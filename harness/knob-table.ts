import type { KnobGroup } from '../adapters/knob.ts'

/** The run-wide knobs the harness reads (harness/knobs.ts). */
export const harnessKnobs: KnobGroup = {
  title: 'run',
  knobs: [
    { name: 'MODEL', kind: 'text', default: '—', accepted: 'provider:model, comma-separated for several', readme: 'the models to benchmark (see Models)' },
    { name: 'SAMPLES', kind: 'integer', default: '1', accepted: 'a whole number ≥ 1', readme: 'samples per item, each its own test (`… > HumanEval/0 has_close_elements sample 3`; samples count from 0, as in the records and replay files)' },
    { name: 'TESTBENCH_DATA_DIR', kind: 'path', default: '—', accepted: 'a directory laid out as `<dir>/<dataset>/<file>`', readme: 'read datasets from this directory instead of downloading them' },
    { name: 'TESTBENCH_REPORT_DIR', kind: 'path', default: '.testbench/reports', accepted: 'a writable directory', readme: 'reports, results files, screenshots' },
    { name: 'TESTBENCH_HTML_DIR', kind: 'path', default: '—', accepted: 'a writable directory', readme: "also write Vitest's single-file html report to `<dir>/index.html`" },
    { name: 'TESTBENCH_PROMPT_MODE', kind: 'choice', default: 'chat', accepted: 'chat or completion (base models)', readme: 'prompt form of the Python code suites' },
    { name: 'TESTBENCH_GATE_CONFIG', kind: 'path', default: 'testbench.gate.json if present', accepted: 'a gate config file, or off', readme: "the model gate's config" },
  ],
}
