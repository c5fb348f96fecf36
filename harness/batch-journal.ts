import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeAtomically } from '../adapters/models/reply-cache.ts'

/** One request a batch carries: its cache key (the batch's custom id) and the reply cache file its answer goes to. */
export interface CarriedRequest {
  key: string
  file: string
}

/** What the cache directory keeps of a batch from the moment it exists, so that a rerun collects it instead of paying again. */
export interface JournalEntry {
  /** The model as in MODEL. */
  label: string
  id: string
  createdAt: string
  requests: CarriedRequest[]
}

/** The open batches of a cache directory, one file each under `<cache dir>/batches/`. */
export class BatchJournal {
  readonly directory: string

  constructor(cacheDir: string) {
    this.directory = join(cacheDir, 'batches')
  }

  async write(entry: JournalEntry): Promise<void> {
    await writeAtomically(this.fileOf(entry.label, entry.id), JSON.stringify(entry))
  }

  async remove(label: string, id: string): Promise<void> {
    await rm(this.fileOf(label, id), { force: true })
  }

  /**
   * The batches a run of `label` left open, each with only the requests whose reply is not in the cache yet;
   * a batch whose replies are all there is forgotten.
   */
  async open(label: string): Promise<JournalEntry[]> {
    await mkdir(this.directory, { recursive: true })
    const prefix = `${safeName(label)}--`
    const entries: JournalEntry[] = []
    for (const name of await readdir(this.directory)) {
      if (!name.startsWith(prefix) || !name.endsWith('.json')) continue
      const file = join(this.directory, name)
      let entry: JournalEntry
      try {
        entry = JSON.parse(await readFile(file, 'utf8')) as JournalEntry
      } catch {
        continue // A file being written by another run, or not ours.
      }
      const missing = entry.requests.filter((request) => !existsSync(request.file))
      if (missing.length === 0) await rm(file, { force: true })
      else entries.push({ ...entry, requests: missing })
    }
    return entries
  }

  private fileOf(label: string, id: string): string {
    return join(this.directory, `${safeName(label)}--${safeName(id)}.json`)
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_')
}
