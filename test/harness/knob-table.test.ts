import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { markdownFiles } from '../support/markdown-files.ts'
import { closestName } from '../../adapters/knob.ts'
import { knobGroupProblems, knobGroups, knownKnobNames, unknownKnobWarnings } from '../../reporters/all-knobs.ts'
import { readmeWithKnobTables } from '../../reporters/readme-knob-tables.ts'

describe('unknown knob names', () => {
  it('warns about a misspelled TESTBENCH_* name and SAMPLE with the closest known name', () => {
    expect(
      unknownKnobWarnings({ TESTBENCH_CACHEDIR: '/tmp', SAMPLE: '5', TESTBENCH_CACHE: 'on', HOME: '/root' }),
    ).toEqual([
      'SAMPLE is set but no knob has that name, so it does nothing: did you mean SAMPLES?',
      'TESTBENCH_CACHEDIR is set but no knob has that name, so it does nothing: did you mean TESTBENCH_CACHE_DIR?',
    ])
  })

  it('does not guess when nothing is close', () => {
    expect(closestName('TESTBENCH_SOMETHING_ELSE_ENTIRELY', knownKnobNames())).toBeUndefined()
  })

  it("docs/knobs.md's tables are the declarations' (npm run docs:knobs writes them)", () => {
    const readme = readFileSync(new URL('../../docs/knobs.md', import.meta.url), 'utf8')
    expect(readmeWithKnobTables(readme)).toBe(readme)
  })

  it('no knob is declared twice', () => {
    const names = knobGroups().flatMap((group) => group.knobs.map((knob) => knob.name))
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
  })

  it('every knob the docs name is a known knob', () => {
    const docs = markdownFiles()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n')
    const named = new Set(docs.match(/\bTESTBENCH_[A-Z0-9_]*[A-Z0-9]\b/g) ?? [])
    expect([...named].filter((name) => !knownKnobNames().includes(name))).toEqual([])
  })
})

describe('suite knobs checked before any item', () => {
  it('a bad value of any suite is found without running that suite, with its name and what is accepted', () => {
    expect(knobGroupProblems({ TESTBENCH_EULER_ERA: 'pe200', TESTBENCH_SWEBENCH_CONTEXT: 'all' })).toEqual([
      'TESTBENCH_EULER_ERA=pe200 is not accepted: use current or pe100, or unset it for current.',
      'TESTBENCH_SWEBENCH_CONTEXT=all is not accepted: use oracle, oracle+dir or none, or unset it for oracle.',
    ])
  })

  it('the defaults are all good', () => {
    expect(knobGroupProblems({})).toEqual([])
  })
})
