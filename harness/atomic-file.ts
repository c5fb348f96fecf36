import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes to a temporary file beside `file` and renames it into place, so a run killed at any
 * moment leaves the old file or the new one, never half of one. The temporary name is unique to
 * this write, so concurrent writers of one file never rename each other's half-written file.
 */
export async function writeFileAtomically(file: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = temporaryName(file)
  await writeFile(temporary, content)
  await rename(temporary, file)
}

/** The same, synchronously: for a reporter's last write on the way out of the process. */
export function writeFileAtomicallySync(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true })
  const temporary = temporaryName(file)
  writeFileSync(temporary, content)
  renameSync(temporary, file)
}

function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
}
