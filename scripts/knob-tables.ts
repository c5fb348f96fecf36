/**
 * `npm run docs:knobs`: writes the README's knob tables from the declarations (reporters/all-knobs.ts),
 * between the two marker lines. `--check` only says whether the README is up to date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readmeWithKnobTables } from '../reporters/readme-knob-tables.ts'

const readmePath = fileURLToPath(new URL('../README.md', import.meta.url))
const readme = readFileSync(readmePath, 'utf8')
const updated = readmeWithKnobTables(readme)
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md: the knob tables differ from the declarations; run `npm run docs:knobs`.')
    process.exit(1)
  }
  console.log('README.md: the knob tables match the declarations.')
} else {
  writeFileSync(readmePath, updated)
  console.log(updated === readme ? 'README.md: knob tables already up to date.' : 'README.md: knob tables written.')
}
