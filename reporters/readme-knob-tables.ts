import { knobTablesMarkdown } from './all-knobs.ts'

export const KNOB_TABLES_START =
  '<!-- knob tables: written by `npm run docs:knobs` from the declarations; edit those, not this -->'
export const KNOB_TABLES_END = '<!-- end of knob tables -->'

/** The knobs page (docs/knobs.md) with the text between the two markers replaced by the tables the declarations give. */
export function readmeWithKnobTables(readme: string): string {
  const start = readme.indexOf(KNOB_TABLES_START)
  const end = readme.indexOf(KNOB_TABLES_END)
  if (start < 0 || end < start)
    throw new Error(
      `docs/knobs.md has no knob-table markers: put ${KNOB_TABLES_START} and ${KNOB_TABLES_END} where the tables go.`,
    )
  return `${readme.slice(0, start + KNOB_TABLES_START.length)}\n\n${knobTablesMarkdown()}\n\n${readme.slice(end)}`
}
