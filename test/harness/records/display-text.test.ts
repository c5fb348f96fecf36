import { describe, expect, test } from 'vitest'
import { displayText } from '../../../harness/records/display-text.ts'

describe('displayText', () => {
  test.each([
    ['colours', '\u001b[1;31mFAILED\u001b[0m', 'FAILED'],
    ['a screen clear and cursor home', 'x\u001b[2J\u001b[Hy', 'xy'],
    ['a window title (OSC, BEL-terminated)', '\u001b]0;pwned\u0007ok', 'ok'],
    ['a hyperlink (OSC 8, ST-terminated)', '\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['a device query (DCS)', '\u001bP+q544e\u001b\\done', 'done'],
    ['8-bit CSI', '\u009b31mred', 'red'],
    ['a carriage return that would overwrite the line', 'wrong\rpassed', 'wrong\npassed'],
    ['backspaces', 'abc\b\b\bxyz', 'abcxyz'],
    ['a bell and NUL', 'a\u0007b\u0000c', 'abc'],
  ])('removes %s', (_, raw, shown) => {
    expect(displayText(raw)).toBe(shown)
  })

  test('keeps line breaks, tabs and every printable character', () => {
    const text = 'def f(x):\n\treturn x  # ünïcödé ✓ 中文\r\n'
    expect(displayText(text)).toBe('def f(x):\n\treturn x  # ünïcödé ✓ 中文\n')
  })
})
