/**
 * Pages a reader scans and code a reader reads keep their lines short: no Markdown line over 600
 * characters (a wall of text becomes a list or a table), and no line of product code over 160 characters
 * unless it is a plain string: a message whose length is its text, which Prettier cannot wrap.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { markdownFiles } from '../support/markdown-files.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

const MARKDOWN_LINE = 600
const CODE_LINE = 160
/** Characters of code (outside string, template and regular-expression text; spaces not counted) a long line may hold and still be a plain string. */
const CODE_IN_A_STRING_LINE = 80
const PRODUCT_FOLDERS = ['adapters', 'harness', 'reporters', 'scripts', 'suites']

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return productFiles(path)
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** For each character of the file, whether it is literal text: a string, a template's text, a regular expression. */
function literalText(file: string, text: string): Uint8Array {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const literal = new Uint8Array(text.length)
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      literal.fill(1, node.getStart(source), node.getEnd())
    ts.forEachChild(node, visit)
  }
  visit(source)
  return literal
}

/** The lines over the limit that are not plain strings, as `line N: M characters, K of code`. */
function longCodeLines(file: string, text: string): string[] {
  const lines = text.split('\n')
  if (lines.every((line) => line.length <= CODE_LINE)) return []
  const literal = literalText(file, text)
  const found: string[] = []
  let offset = 0
  lines.forEach((line, index) => {
    if (line.length > CODE_LINE) {
      let code = 0
      for (let at = 0; at < line.length; at++) if (literal[offset + at] === 0 && line[at] !== ' ') code++
      if (code > CODE_IN_A_STRING_LINE)
        found.push(`line ${index + 1}: ${line.length} characters, ${code} of code: wrap it, or build it in parts`)
    }
    offset += line.length + 1
  })
  return found
}

test.for(markdownFiles().map((file) => ({ name: relative(REPO_ROOT, file), file })))(
  `$name: no line over ${MARKDOWN_LINE} characters`,
  ({ file }) => {
    const long = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        [...line].length > MARKDOWN_LINE
          ? [`line ${index + 1}: ${[...line].length} characters: make it a list or a table`]
          : [],
      )
    expect(long).toEqual([])
  },
)

const productCode = [
  ...PRODUCT_FOLDERS.flatMap((folder) => productFiles(join(REPO_ROOT, folder))),
  join(REPO_ROOT, 'index.ts'),
]

test.for(productCode.map((file) => ({ name: relative(REPO_ROOT, file), file })))(
  `$name: no line over ${CODE_LINE} characters but plain strings`,
  ({ file }) => {
    expect(longCodeLines(file, readFileSync(file, 'utf8'))).toEqual([])
  },
)

test('the code rule tells a long message from long code', () => {
  const message = `  throw new Error(\`${'a message that says what happened and what to do, '.repeat(4)}\`)\n`
  const code = `  const x = [${Array.from({ length: 40 }, (_, k) => `a${k}`).join(', ')}].map((v) => v + 1)\n`
  const codeInTemplate = `  const y = \`${Array.from({ length: 12 }, (_, k) => `\${values[${k}].toFixed(2)}`).join(' ')}\`\n`
  expect(longCodeLines('message.ts', message)).toEqual([])
  expect(longCodeLines('code.ts', code)).toHaveLength(1)
  expect(longCodeLines('template.ts', codeInTemplate)).toHaveLength(1)
  expect(longCodeLines('short.ts', 'const z = 1\n')).toEqual([])
})
