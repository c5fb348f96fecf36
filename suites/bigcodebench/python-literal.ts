/**
 * The `libs` field of BigCodeBench rows is a Python list literal (`"['random', 'itertools']"`),
 * written by `repr`, so its strings use single quotes and Python escapes: JSON.parse cannot read it.
 */

/** The strings of a Python list (or tuple) literal of string literals; throws, naming the position, on anything else. */
export function parsePythonStringList(text: string): string[] {
  const reader = new LiteralReader(text)
  reader.skipSpace()
  const close = reader.take('[') ? ']' : reader.take('(') ? ')' : undefined
  if (close === undefined) throw reader.error('expected "[" or "(" to open the list')
  const values: string[] = []
  reader.skipSpace()
  while (!reader.take(close)) {
    values.push(reader.stringLiteral())
    reader.skipSpace()
    if (reader.take(',')) {
      reader.skipSpace()
      continue
    }
    reader.skipSpace()
    if (!reader.take(close)) throw reader.error(`expected "," or "${close}"`)
    break
  }
  reader.skipSpace()
  if (!reader.atEnd()) throw reader.error('expected the end after the list')
  return values
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
}

class LiteralReader {
  readonly #text: string
  #at = 0

  constructor(text: string) {
    this.#text = text
  }

  atEnd(): boolean {
    return this.#at >= this.#text.length
  }

  skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.#text[this.#at] ?? '')) this.#at++
  }

  take(char: string): boolean {
    if (this.#text[this.#at] !== char) return false
    this.#at++
    return true
  }

  /** One `'…'` or `"…"` literal, optionally prefixed `r`/`u`, with Python's escapes. */
  stringLiteral(): string {
    const prefix = /^[rRuU]?/.exec(this.#text.slice(this.#at))?.[0] ?? ''
    this.#at += prefix.length
    const raw = prefix.toLowerCase() === 'r'
    const quote = this.#text[this.#at]
    if (quote !== "'" && quote !== '"') throw this.error('expected a string literal')
    this.#at++
    let value = ''
    while (true) {
      const char = this.#text[this.#at]
      if (char === undefined || char === '\n') throw this.error('unterminated string literal')
      this.#at++
      if (char === quote) return value
      if (char !== '\\') {
        value += char
        continue
      }
      const next = this.#text[this.#at] ?? ''
      this.#at++
      if (raw) value += `\\${next}`
      else value += this.escape(next)
    }
  }

  escape(next: string): string {
    const simple = SIMPLE_ESCAPES[next]
    if (simple !== undefined) return simple
    const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0
    if (hexLength > 0) {
      const hex = this.#text.slice(this.#at, this.#at + hexLength)
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(hex)) throw this.error(`bad \\${next} escape`)
      this.#at += hexLength
      return String.fromCodePoint(Number.parseInt(hex, 16))
    }
    if (/[0-7]/.test(next)) {
      const octal = next + (/^[0-7]{0,2}/.exec(this.#text.slice(this.#at))?.[0] ?? '')
      this.#at += octal.length - 1
      return String.fromCodePoint(Number.parseInt(octal, 8))
    }
    // Python keeps an unknown escape as written.
    return `\\${next}`
  }

  error(expected: string): Error {
    return new SyntaxError(
      `Python list literal ${JSON.stringify(this.#text.slice(0, 80))}: ${expected} at character ${this.#at}.`,
    )
  }
}
