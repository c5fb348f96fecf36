import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface BadInput {
  name: string
  env?: Record<string, string>
  /** Writes files the input needs into the case's own temp dir; returns more variables. */
  prepare?: (dir: string) => Record<string, string>
  /** Suite path to run; suites/demo unless named. */
  suite?: string
  /** The one message: what is wrong, where, and what to do. */
  message: RegExp
  /** A piece of the message that must appear exactly once (default: the message). */
  once?: string
}

// One part file of a split suite: each part file that cannot load its items reports it on its own.
const FAREL = 'suites/farel/farel-1.test.ts'
const HUMANEVAL = 'suites/humaneval/humaneval-1.test.ts'
const EULER = 'suites/euler/euler-1.test.ts'

/** A regular file, so that any directory under it can never be created. */
function fileAt(dir: string): string {
  const file = join(dir, 'a-file')
  writeFileSync(file, '')
  return file
}

const knob = (name: string, value: string, accepted: RegExp, suite?: string): BadInput => ({
  name: `${name}=${value}`,
  env: { [name]: value },
  message: new RegExp(`${name}=${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${accepted.source}`),
  once: `${name}=${value}`,
  ...(suite === undefined ? {} : { suite }),
})

export const badInputs: BadInput[] = [
  knob('SAMPLES', '0', /is not accepted: use a whole number ≥ 1, or unset it for 1\./),
  knob('SAMPLES', 'abc', /whole number/),
  knob('SAMPLES', '-1', /whole number/),
  knob('SAMPLES', '1.5', /whole number/),
  knob('TESTBENCH_CACHE', 'maybe', /use on, off or refresh, or unset it for on/),
  knob('TESTBENCH_CACHE', 'yes', /use on, off or refresh, or unset it for on/),
  knob('TESTBENCH_REQUEST_TIMEOUT', '0', /a whole number ≥ 1/),
  knob('TESTBENCH_REQUEST_TIMEOUT', 'ten', /whole number/),
  knob('TESTBENCH_RETRIES', '-1', /whole number/),
  knob('TESTBENCH_RETRIES', 'many', /whole number/),
  knob('TESTBENCH_CONCURRENCY', '0', /a whole number ≥ 1/),
  knob('TESTBENCH_CONCURRENCY', 'two', /whole number/),
  knob('TESTBENCH_SANDBOX_CONCURRENCY', '0', /a whole number ≥ 1/),
  knob('TESTBENCH_SANDBOX_CONCURRENCY', 'x', /whole number/),
  knob('TESTBENCH_PYTHON_WARM', 'maybe', /0\/off\/false/),
  knob('TESTBENCH_PYTHON_WARM', '2', /0\/off\/false/),
  knob('SANDBOX', 'vm', /use process, docker or none, or unset it for process/),
  knob('SANDBOX', 'bwrap', /use process, docker or none, or unset it for process/),
  knob('TESTBENCH_PROMPT_MODE', 'base', /use chat or completion/),
  knob('MODEL', 'replay:', /needs a file/),
  knob('MODEL', 'openai:', /the model name after "openai:" is missing/),
  knob('MODEL', ',,', /has an empty entry/),
  knob('MODEL', 'anthropic:', /the model name after "anthropic:" is missing/),
  knob('TESTBENCH_FAREL_LENGTH', '0', /whole number from 1 to 12/, FAREL),
  knob('TESTBENCH_FAREL_LENGTH', '13', /whole number from 1 to 12/, FAREL),
  knob('TESTBENCH_FAREL_PER_CLASS', 'lots', /whole number from 1/, FAREL),
  knob('TESTBENCH_FAREL_SEED', 'abc', /whole number/, FAREL),
  knob('TESTBENCH_FAREL_MODE', 'numpy', /python-compat .* or seedrandom/, FAREL),
  knob('TESTBENCH_FAREL_SHUFFLE', 'sometimes', /use 1\/on\/true or 0\/off\/false/, FAREL),
  knob('TESTBENCH_FAREL_SYSTEM', 'maybe', /on|off/, FAREL),
  knob('TESTBENCH_EULER_ERA', 'pe200', /use current or pe100, or unset it for current/),
  knob('TESTBENCH_HUMANEVAL_VARIANTS', 'humaneval++', /use a comma list of humaneval and humaneval\+/),
  knob('TESTBENCH_BIGCODEBENCH_SUBSET', 'medium', /full \(1140 tasks\) or hard/),
  knob('TESTBENCH_SWEBENCH_TIMEOUT', 'soon', /whole number/),
  {
    name: 'several bad knobs at once: each named once, in one message',
    env: { SAMPLES: '0', TESTBENCH_CACHE: 'maybe', SANDBOX: 'vm' },
    message: /SAMPLES=0[^]*TESTBENCH_CACHE=maybe[^]*SANDBOX=vm/,
    once: 'not usable',
  },
  {
    name: 'TESTBENCH_REPORT_DIR under /proc fails fast',
    env: { TESTBENCH_REPORT_DIR: '/proc/testbench-reports' },
    message:
      /TESTBENCH_REPORT_DIR=\/proc\/testbench-reports cannot be written.*point TESTBENCH_REPORT_DIR at a directory/,
    once: 'TESTBENCH_REPORT_DIR=',
  },
  {
    name: 'TESTBENCH_REPORT_DIR under /sys',
    env: { TESTBENCH_REPORT_DIR: '/sys/testbench' },
    message: /TESTBENCH_REPORT_DIR=\/sys\/testbench cannot be written/,
    once: 'TESTBENCH_REPORT_DIR=',
  },
  {
    name: 'TESTBENCH_REPORT_DIR under a regular file',
    prepare: (dir) => ({ TESTBENCH_REPORT_DIR: join(fileAt(dir), 'reports') }),
    message: /TESTBENCH_REPORT_DIR=.*a-file\/reports cannot be written \(ENOTDIR\)/,
    once: 'TESTBENCH_REPORT_DIR=',
  },
  {
    name: 'TESTBENCH_REPORT_DIR is a regular file',
    prepare: (dir) => ({ TESTBENCH_REPORT_DIR: fileAt(dir) }),
    message: /TESTBENCH_REPORT_DIR=.*a-file cannot be written/,
    once: 'TESTBENCH_REPORT_DIR=',
  },
  {
    name: 'TESTBENCH_CACHE_DIR under /proc fails fast',
    env: { TESTBENCH_CACHE_DIR: '/proc/testbench-cache' },
    message: /TESTBENCH_CACHE_DIR=\/proc\/testbench-cache cannot be written/,
    once: 'TESTBENCH_CACHE_DIR=',
  },
  {
    name: 'TESTBENCH_CACHE_DIR under a regular file',
    prepare: (dir) => ({ TESTBENCH_CACHE_DIR: join(fileAt(dir), 'cache') }),
    message: /TESTBENCH_CACHE_DIR=.*a-file\/cache cannot be written \(ENOTDIR\)/,
    once: 'TESTBENCH_CACHE_DIR=',
  },
  {
    name: 'TESTBENCH_CACHE_DIR is a regular file',
    prepare: (dir) => ({ TESTBENCH_CACHE_DIR: fileAt(dir) }),
    message: /TESTBENCH_CACHE_DIR=.*a-file cannot be written/,
    once: 'TESTBENCH_CACHE_DIR=',
  },
  {
    name: 'TESTBENCH_HTML_DIR under /proc',
    env: { TESTBENCH_HTML_DIR: '/proc/testbench-html' },
    message: /TESTBENCH_HTML_DIR=\/proc\/testbench-html cannot be written/,
    once: 'TESTBENCH_HTML_DIR=',
  },
  {
    name: 'TESTBENCH_HTML_DIR under a regular file',
    prepare: (dir) => ({ TESTBENCH_HTML_DIR: join(fileAt(dir), 'html') }),
    message: /TESTBENCH_HTML_DIR=.*a-file\/html cannot be written/,
    once: 'TESTBENCH_HTML_DIR=',
  },
  {
    name: 'replay file that does not exist',
    env: { MODEL: 'replay:/nonexistent/answers.jsonl' },
    message: /MODEL=replay:\/nonexistent\/answers.jsonl: cannot read/,
    once: 'cannot read',
  },
  {
    name: 'replay directory without trajectories',
    prepare: (dir) => ({ MODEL: `replay:${dir}` }),
    message:
      /MODEL=replay:.* is a directory without trajectories: give a directory of <instance>\/<instance>\.traj\.json files/,
    once: 'is a directory without trajectories',
  },
  {
    name: 'replay line that is not JSON',
    prepare: (dir) => (
      writeFileSync(join(dir, 'a.jsonl'), '{"id": "sum-2+3", "reply": "5"}\nnot json\n'),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message: /a\.jsonl:2 is not a JSON object: not json/,
    once: 'is not a JSON object',
  },
  {
    name: 'replay line without an id',
    prepare: (dir) => (
      writeFileSync(join(dir, 'a.jsonl'), '{"reply": "5"}\n'),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message: /a\.jsonl.*has no item id: give "id", "task_id" or "instance_id"/,
    once: 'has no item id',
  },
  {
    name: 'replay line without an answer',
    prepare: (dir) => (
      writeFileSync(join(dir, 'a.jsonl'), '{"id": "sum-2+3"}\n'),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message: /a\.jsonl.*has no answer: give "reply", "completion", "solution", "model_patch" or "turns"/,
    once: 'has no answer',
  },
  {
    name: 'replay line with a bad sample number',
    prepare: (dir) => (
      writeFileSync(join(dir, 'a.jsonl'), '{"id": "sum-2+3", "reply": "5", "sample": -1}\n'),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message: /a\.jsonl.*"sample" must be a whole number from 0/,
    once: '"sample" must be',
  },
  {
    name: 'replay line that is a JSON array',
    prepare: (dir) => (writeFileSync(join(dir, 'a.jsonl'), '[1, 2]\n'), { MODEL: `replay:${join(dir, 'a.jsonl')}` }),
    message: /a\.jsonl:1 has no item id: give "id"/,
    once: 'has no item id',
  },
  {
    name: 'replay file whose ids match no item of the suite',
    prepare: (dir) => (
      writeFileSync(
        join(dir, 'a.jsonl'),
        '{"task_id": "HumanEval/0", "completion": "x"}\n{"task_id": "HumanEval/1", "completion": "y"}\n',
      ),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message:
      /replay:.*a\.jsonl: none of its 2 answers is for an item of demo\. Its ids look like "HumanEval\/0", "HumanEval\/1"; demo expects ids like "sum-2\+3"/,
    once: 'none of its 2 answers',
  },
  {
    name: 'replay file that answers one item and sample twice',
    prepare: (dir) => (
      writeFileSync(
        join(dir, 'a.jsonl'),
        '{"id": "sum-2+3", "reply": "5", "sample": 0}\n{"id": "sum-2+3", "reply": "6", "sample": 0}\n',
      ),
      { MODEL: `replay:${join(dir, 'a.jsonl')}` }
    ),
    message: /a\.jsonl:2 answers item sum-2\+3 sample 0 again \(line 1 did already\): remove one/,
    once: 'again (line 1',
  },
  {
    name: 'gate config that does not exist',
    env: { TESTBENCH_GATE_CONFIG: '/nonexistent/gate.json' },
    message: /\/nonexistent\/gate\.json/,
    once: 'GateConfigError',
  },
  {
    name: 'gate config that is not JSON',
    prepare: (dir) => (
      writeFileSync(join(dir, 'gate.json'), '{ not json'),
      { TESTBENCH_GATE_CONFIG: join(dir, 'gate.json') }
    ),
    message: /gate\.json/,
    once: 'GateConfigError',
  },
  {
    name: 'FaRel template file that does not exist',
    suite: FAREL,
    env: { TESTBENCH_FAREL_TEMPLATE: '/nonexistent/template.txt' },
    message: /TESTBENCH_FAREL_TEMPLATE.*\/nonexistent\/template\.txt/,
    once: 'TESTBENCH_FAREL_TEMPLATE',
  },
  {
    name: 'FaRel system prompt file that does not exist',
    suite: FAREL,
    env: { TESTBENCH_FAREL_SYSTEM_FILE: '/nonexistent/system.txt' },
    message: /TESTBENCH_FAREL_SYSTEM_FILE.*\/nonexistent\/system\.txt/,
    once: 'TESTBENCH_FAREL_SYSTEM_FILE',
  },
  {
    name: 'dataset dir without the dataset',
    suite: HUMANEVAL,
    prepare: (dir) => (mkdirSync(join(dir, 'datasets')), { TESTBENCH_DATA_DIR: join(dir, 'datasets') }),
    message: /humaneval\/HumanEval\.jsonl\.gz is not in TESTBENCH_DATA_DIR=.*Put the file there/,
    // Each missing file is named once (HumanEval's and HumanEval+'s), however many part files the suite has.
    once: 'humaneval/HumanEval.jsonl.gz is not in',
  },
  {
    name: 'dataset file whose bytes are not the pinned ones',
    suite: HUMANEVAL,
    prepare: (dir) => {
      mkdirSync(join(dir, 'datasets', 'humaneval'), { recursive: true })
      writeFileSync(join(dir, 'datasets', 'humaneval', 'HumanEval.jsonl.gz'), 'not the dataset')
      return { TESTBENCH_DATA_DIR: join(dir, 'datasets') }
    },
    message: /HumanEval\.jsonl\.gz[^]*sha256/,
    once: 'is expected: it is another version',
  },
  {
    name: 'Euler answers (solutions.json) that are not the pinned ones',
    suite: EULER,
    prepare: (dir) => {
      mkdirSync(join(dir, 'datasets', 'euler'), { recursive: true })
      writeFileSync(
        join(dir, 'datasets', 'euler', 'solutions.json'),
        '{"0001": {"title": "x", "solved_by": 1, "solution": "1"}}',
      )
      return {
        TESTBENCH_DATA_DIR: join(dir, 'datasets'),
        TESTBENCH_EULER_PROBLEMS: '1',
        TESTBENCH_EULER_LANGUAGES: 'python',
      }
    },
    message:
      /euler\/solutions\.json in TESTBENCH_DATA_DIR .* has sha256 .* is expected: .*Replace it with the file from/,
    once: 'is expected: it is another version',
  },
]
