/** A Markdown table from rows of named columns; the columns are the union of the rows' keys, in first-seen order. */
export function markdownTable(rows: ReadonlyArray<Record<string, string>>): string {
  const columns: string[] = []
  for (const row of rows) for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column)
  if (columns.length === 0) return ''
  const cells = (values: string[]) => `| ${values.join(' | ')} |`
  return [
    cells(columns),
    cells(columns.map(() => '---')),
    ...rows.map((row) => cells(columns.map((column) => row[column] ?? ''))),
  ].join('\n')
}

/** Merges the score columns of one model into one results-table row (several scores may share a model). */
export function rowsByModel(
  scores: ReadonlyArray<{ model: string; columns?: Record<string, string> }>,
): Array<Record<string, string>> {
  const rows = new Map<string, Record<string, string>>()
  for (const score of scores) {
    if (!score.columns) continue
    rows.set(score.model, { ...rows.get(score.model), ...score.columns })
  }
  return [...rows.values()]
}
