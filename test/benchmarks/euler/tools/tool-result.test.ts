import { expect, test } from 'vitest'
import { pythonJsonDumps, upstreamToolResult } from '../../../../suites/euler/tools/tool-result.ts'

test("tool results are upstream's json.dumps, byte for byte", () => {
  expect(upstreamToolResult('read_file', { ok: true, output: 'print("é")\n\t😀', error: '' })).toBe(
    '{"tool": "read_file", "exit_code": 0, "stdout": "print(\\"\\u00e9\\")\\n\\t\\ud83d\\ude00", "stderr": ""}',
  )
  expect(upstreamToolResult('x', { ok: false, output: '', error: 'bad\u007f\u001b' })).toBe(
    '{"tool": "x", "exit_code": 1, "stdout": "", "stderr": "bad\\u007f\\u001b"}',
  )
  expect(pythonJsonDumps({ a: [1, 2.5, true, null], b: { c: '' } })).toBe('{"a": [1, 2.5, true, null], "b": {"c": ""}}')
})
