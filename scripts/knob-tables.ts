/**
 * `npm run docs:knobs`: writes docs/knobs.md's knob tables from the declarations (reporters/all-knobs.ts),
 * between the two marker lines. `--check` only says whether docs/knobs.md is up to date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readmeWithKnobTables } from '../reporters/readme-knob-tables.ts'
import { refuseArguments } from './script-usage.ts'

const USAGE = `usage: npm run docs:knobs [-- --check]
Writes docs/knobs.md's knob tables from the declarations; --check only says whether they are up to date
(exit 1 when not).`
refuseArguments(USAGE, ['--check'])

const readmePath = fileURLToPath(new URL('../docs/knobs.md', import.meta.url))
const readme = readFileSync(readmePath, 'utf8')
const updated = readmeWithKnobTables(readme)
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('docs/knobs.md: the knob tables differ from the declarations; run `npm run docs:knobs`.')
    process.exit(1)
  }
  console.log('docs/knobs.md: the knob tables match the declarations.')
} else {
  writeFileSync(readmePath, updated)
  console.log(
    updated === readme ? 'docs/knobs.md: knob tables already up to date.' : 'docs/knobs.md: knob tables written.',
  )
}
