/** Small parquet files for tests, written with hyparquet-writer as the hub's datasets are laid out: one string column per field. */
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'

/** Writes rows whose fields are all strings; returns the file's sha256. */
export async function writeStringParquet(path: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<string> {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  const columnData = names.map((name) => ({
    name,
    type: 'STRING' as const,
    data: rows.map((row) => {
      const value = row[name]
      if (typeof value !== 'string')
        throw new Error(`writeStringParquet: field "${name}" is not a string in every row.`)
      return value
    }),
  }))
  const bytes = new Uint8Array(parquetWriteBuffer({ columnData }))
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, bytes)
  return createHash('sha256').update(bytes).digest('hex')
}
