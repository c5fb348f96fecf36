import { describe, expect, test } from 'vitest'
import { extractPatch } from '../../../../suites/swebench/patches/extract-patch.ts'
import { patchFiles, testFiles } from '../../../../suites/swebench/patches/patch-files.ts'
import { repairHunkHeaders } from '../../../../suites/swebench/patches/repair-hunks.ts'
import { testDirectives } from '../../../../suites/swebench/evaluation/repo-specs.ts'
import { fixturePatch } from '../synthetic-instance.ts'

const GOLD = fixturePatch('gold')

const SECOND_FILE = [
  'diff --git a/tinycalc/__init__.py b/tinycalc/__init__.py',
  '--- a/tinycalc/__init__.py',
  '+++ b/tinycalc/__init__.py',
  '@@ -1,4 +1,4 @@',
  ' """Small statistics helpers."""',
  ' from .stats import median',
  ' ',
  '-__all__ = ["median"]',
  '+__all__ = ["median", "mean"]',
  '',
].join('\n')

describe('extractPatch', () => {
  test('a bare diff comes back byte for byte', () => {
    expect(extractPatch(GOLD)).toEqual({ patch: GOLD, repaired: [] })
  })

  test('a fenced diff among prose, with reasoning before it', () => {
    const reply = `<think>the even case is wrong</think>Here is the fix:\n\n\`\`\`diff\n${GOLD}\`\`\`\n\nThis handles even lengths.`
    expect(extractPatch(reply)?.patch).toBe(GOLD)
  })

  test('carriage returns that belong to lines (a CRLF file) are kept, bare or fenced', () => {
    const crlfFile = [
      '--- a/win.txt',
      '+++ b/win.txt',
      '@@ -1,3 +1,3 @@',
      ' one\r',
      '-two\r',
      '+2\r',
      ' three\r',
      '',
    ].join('\n')
    expect(extractPatch(crlfFile)).toEqual({ patch: crlfFile, repaired: [] })
    expect(extractPatch(`Fix:\n\n\`\`\`diff\n${crlfFile}\`\`\`\n`)?.patch).toBe(crlfFile)
    // A blank context line whose space was lost keeps its carriage return too.
    const lostSpace = crlfFile.replace(' three\r', '\r').replace('@@ -1,3 +1,3 @@', '@@ -1,3 +1,3 @@')
    expect(extractPatch(lostSpace)?.patch).toBe(crlfFile.replace(' three\r', ' \r'))
  })

  test('several files in several fenced blocks are joined', () => {
    const reply = `First:\n\`\`\`diff\n${GOLD}\`\`\`\nThen:\n\`\`\`patch\n${SECOND_FILE}\`\`\`\n`
    const patch = extractPatch(reply)?.patch
    expect(patch).toBe(GOLD + SECOND_FILE)
    expect(patchFiles(patch ?? '')).toEqual(['tinycalc/stats.py', 'tinycalc/__init__.py'])
  })

  test('a bare diff between two paragraphs of prose, with CRLF line endings', () => {
    const reply = `I changed two files.\r\n\r\n${(GOLD + SECOND_FILE).replaceAll('\n', '\r\n')}\r\nThat should do it.\r\n`
    expect(extractPatch(reply)?.patch).toBe(GOLD + SECOND_FILE)
  })

  test('fenced code that is not a diff is ignored in favour of the bare diff', () => {
    const reply = `Run it like this:\n\`\`\`python\nprint(median([1, 2]))\n\`\`\`\n${GOLD}`
    expect(extractPatch(reply)?.patch).toBe(GOLD)
  })

  test('a reply without a diff, or with headers and no hunk, gives nothing', () => {
    expect(extractPatch('I would change median() to average the two middle values.')).toBeUndefined()
    expect(extractPatch('')).toBeUndefined()
    expect(extractPatch('--- a/tinycalc/stats.py\n+++ b/tinycalc/stats.py\n')).toBeUndefined()
  })

  test('wrong hunk counts are repaired and reported', () => {
    const extracted = extractPatch(fixturePatch('wrong-hunk-counts'))
    expect(extracted?.patch).toBe(GOLD)
    expect(extracted?.repaired).toHaveLength(1)
  })
})

describe('repairHunkHeaders', () => {
  test('a hunk whose blank context lines lost their space is counted with them as context', () => {
    const patch = ['--- a/f.py', '+++ b/f.py', '@@ -1,3 +1,3 @@', ' a = 1', '', '-b = 2', '+b = 3', ''].join('\n')
    expect(repairHunkHeaders(patch)).toEqual({
      patch: ['--- a/f.py', '+++ b/f.py', '@@ -1,3 +1,3 @@', ' a = 1', ' ', '-b = 2', '+b = 3', ''].join('\n'),
      repaired: [],
    })
  })

  test('counts that are off in several hunks of several files are all rewritten, the rest untouched', () => {
    const patch = [
      '--- a/f.py',
      '+++ b/f.py',
      '@@ -1,9 +1,9 @@ def f():',
      ' x',
      '-y',
      '+z',
      '@@ -20 +20 @@',
      '-old',
      '+new',
      '--- a/g.py',
      '+++ b/g.py',
      '@@ -5,2 +5,1 @@',
      ' keep',
      '+added',
      '',
    ].join('\n')
    const { patch: repaired, repaired: notes } = repairHunkHeaders(patch)
    expect(repaired.split('\n').filter((line) => line.startsWith('@@'))).toEqual([
      '@@ -1,2 +1,2 @@ def f():',
      '@@ -20 +20 @@',
      '@@ -5,1 +5,2 @@',
    ])
    expect(notes).toEqual(['@@ -1,9 +1,9 @@ def f(): → @@ -1,2 +1,2 @@ def f():', '@@ -5,2 +5,1 @@ → @@ -5,1 +5,2 @@'])
  })

  test('a removed line that starts with "--" inside a hunk with right counts stays in the hunk', () => {
    const patch = ['--- a/sql.py', '+++ b/sql.py', '@@ -1,2 +1,1 @@', '--- a comment', ' select 1', ''].join('\n')
    expect(repairHunkHeaders(patch)).toEqual({ patch, repaired: [] })
  })
})

describe('the test files of a test patch', () => {
  const testPatch = [
    'diff --git a/tests/forms_tests/field_tests/test_urlfield.py b/tests/forms_tests/field_tests/test_urlfield.py',
    '--- a/tests/forms_tests/field_tests/test_urlfield.py',
    '+++ b/tests/forms_tests/field_tests/test_urlfield.py',
    '@@ -1 +1 @@',
    '-a',
    '+b',
    'diff --git a/tests/forms_tests/fixtures/data.json b/tests/forms_tests/fixtures/data.json',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/tests/forms_tests/fixtures/data.json',
    '@@ -0,0 +1 @@',
    '+{}',
    '',
  ].join('\n')

  test('data files are left out', () => {
    expect(patchFiles(testPatch)).toEqual([
      'tests/forms_tests/field_tests/test_urlfield.py',
      'tests/forms_tests/fixtures/data.json',
    ])
    expect(testFiles(testPatch)).toEqual(['tests/forms_tests/field_tests/test_urlfield.py'])
  })

  test('django takes them as dotted modules under tests/, the others as paths', () => {
    expect(testDirectives('django/django', testPatch)).toEqual(['forms_tests.field_tests.test_urlfield'])
    expect(testDirectives('pallets/flask', testPatch)).toEqual(['tests/forms_tests/field_tests/test_urlfield.py'])
  })
})
