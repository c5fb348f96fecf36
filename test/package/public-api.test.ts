/**
 * The public API is what index.ts exports, and public-api.api.txt holds each name's kind and type as the
 * TypeScript compiler sees it. A change to any of them (a name added or dropped, a parameter, a field of an
 * exported type) fails this test until the file is updated on purpose (`npx vitest run -u
 * test/package/public-api.test.ts`) and CHANGELOG.md says what changed.
 */
import { join } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'
import { REPO_ROOT } from '../support/run-vitest.ts'
import * as publicApi from '../../index.ts'

const ENTRY = join(REPO_ROOT, 'index.ts')

test('index.ts exports exactly the API recorded in public-api.api.txt', async () => {
  const program = ts.createProgram([ENTRY], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    types: ['node'],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(ENTRY)
  const module = source && checker.getSymbolAtLocation(source)
  if (!module) throw new Error(`TypeScript cannot read ${ENTRY}`)
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias
  const lines = checker
    .getExportsOfModule(module)
    .map((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declaration = symbol.declarations?.[0]
      if (declaration === undefined) return `${exported.name}: (no declaration)`
      if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        const type = checker.getDeclaredTypeOfSymbol(symbol)
        const members = checker.getPropertiesOfType(type).map((property) => {
          const optional = property.flags & ts.SymbolFlags.Optional ? '?' : ''
          const propertyType = checker.typeToString(
            checker.getTypeOfSymbolAtLocation(property, declaration),
            undefined,
            flags,
          )
          // A well-known symbol's name carries the compiler's count of symbols (`__@iterator@924`), which any file
          // of the program moves.
          const name = property.name.replace(/^__@(\w+)@\d+$/, '[Symbol.$1]')
          return `  ${name}${optional}: ${propertyType}`
        })
        const kind = symbol.flags & ts.SymbolFlags.Interface ? 'interface' : 'type'
        return [`${kind} ${exported.name} = ${checker.typeToString(type, undefined, flags)}`, ...members].join('\n')
      }
      const kind =
        symbol.flags & ts.SymbolFlags.Function ? 'function' : symbol.flags & ts.SymbolFlags.Class ? 'class' : 'const'
      return `${kind} ${exported.name}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), undefined, flags)}`
    })
    .sort()
  expect(Object.keys(publicApi).sort(), 'what a project can import at run time').toEqual(
    lines
      .filter((line) => !/^(interface|type) /.test(line))
      .map((line) => line.split(/[ :]/)[1])
      .sort(),
  )
  await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./public-api.api.txt')
})
