import type { KnobGroup } from '../../adapters/knob.ts'
import { farelOptions } from './options.ts'

const onOff = '1/on/true or 0/off/false'

export const farelKnobs: KnobGroup = {
  title: 'farel',
  knobs: [
    { name: 'TESTBENCH_FAREL_LENGTH', kind: 'integer', default: '3', accepted: '1 to 12', readme: 'the longest relationship (FaRel-L)' },
    { name: 'TESTBENCH_FAREL_PER_CLASS', kind: 'integer', default: '50', accepted: 'a whole number ≥ 1', readme: 'quizzes per relationship class' },
    { name: 'TESTBENCH_FAREL_SEED', kind: 'integer', default: '42', accepted: 'a whole number', readme: 'the quiz generator seed' },
    { name: 'TESTBENCH_FAREL_MODE', kind: 'choice', default: 'python-compat', accepted: 'python-compat (the published set byte for byte) or seedrandom', readme: 'the random generator' },
    { name: 'TESTBENCH_FAREL_SHUFFLE', kind: 'boolean', default: 'on', accepted: onOff, readme: 'random order of statements and options' },
    { name: 'TESTBENCH_FAREL_TEMPLATE', kind: 'path', default: "the original's", accepted: 'a file with `$QUIZ_RELATIONS`, `$QUIZ_QUESTION`, `$QUIZ_ANSWERS`', readme: 'the prompt template' },
    { name: 'TESTBENCH_FAREL_SYSTEM', kind: 'boolean', default: 'off', accepted: onOff, readme: "the original's system prompt, and `-sys` in the score's name" },
    { name: 'TESTBENCH_FAREL_SYSTEM_FILE', kind: 'path', default: '—', accepted: 'a file holding a system prompt', readme: 'another system prompt (implies `TESTBENCH_FAREL_SYSTEM=on`)' },
    { name: 'TESTBENCH_FAREL_PARSE', kind: 'choice', default: 'tag', accepted: 'tag or tag-or-boxed', readme: 'how an answer is read; `tag-or-boxed` as two published logs were scored (see Upstream and deviations)' },
  ],
  check: (env) => farelOptions(env),
}
