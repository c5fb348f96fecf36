import { expect, test } from 'vitest'
import { parseInstance } from '../../../suites/swebench/instance.ts'
import { syntheticRow } from './synthetic-instance.ts'

test('test lists come as JSON-encoded strings (the hub) or as lists (other exports)', async () => {
  const row = await syntheticRow()
  const asLists = { ...row, FAIL_TO_PASS: ['a'], PASS_TO_PASS: [] }
  expect(parseInstance(asLists, 'row 1')).toMatchObject({ failToPass: ['a'], passToPass: [] })
  expect(parseInstance(row, 'row 1')).toMatchObject({ failToPass: ['tests/test_stats.py::test_median_even'] })
})

test('a row of SWE-bench has no spec of its own; a custom row names its test command and parser', async () => {
  const { test_cmd: _command, log_parser: _parser, ...swebenchRow } = await syntheticRow()
  expect(parseInstance(swebenchRow, 'row 1').spec).toBeUndefined()
  expect(parseInstance({ ...(await syntheticRow()), install: 'pip install -e .' }, 'row 1').spec).toEqual({
    testCommand: 'python3 -m pytest -rA -p no:cacheprovider',
    parser: 'pytest',
    install: 'pip install -e .',
  })
})

test('rows that cannot be used say which row and which field', async () => {
  const row = await syntheticRow()
  expect(() => parseInstance({ ...row, log_parser: 'junit' }, 'data.jsonl:3')).toThrow(
    'data.jsonl:3: log_parser "junit" is not one of pytest,',
  )
  expect(() => parseInstance({ ...row, FAIL_TO_PASS: '[oops' }, 'data.jsonl:3')).toThrow(
    /data.jsonl:3: field "FAIL_TO_PASS" should hold a JSON list/,
  )
  const { base_commit: _commit, ...noCommit } = row
  expect(() => parseInstance(noCommit, 'data.jsonl:3')).toThrow(/field "base_commit" should be a string/)
})
