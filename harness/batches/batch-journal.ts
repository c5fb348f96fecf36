import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeAtomically } from '../../adapters/models/reply-cache.ts'

/** One request a batch carries: its cache key (the batch's custom id) and the reply cache file its answer goes to. */
export interface CarriedRequest {
  key: string
  file: string
}

/**
 * What the cache directory keeps of a batch from just before it is created, so that a rerun collects it instead of
 * paying again: without `id`, the batch was being created when the run stopped, and is looked for by its tag.
 */
export interface JournalEntry {
  /** The model as in MODEL. */
  label: string
  /** Ours, given before the batch exists; the provider keeps it where it can (batch-wire.ts). */
  tag: string
  id?: string
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
    await writeAtomically(this.fileOf(entry.label, entry.tag), JSON.stringify(entry))
  }

  async remove(label: string, tag: string): Promise<void> {
    await rm(this.fileOf(label, tag), { force: true })
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
        // Records written before batches had tags are named by their id.
        entry.tag ??= entry.id ?? name.slice(prefix.length, -'.json'.length)
      } catch {
        continue // A file being written by another run, or not ours.
      }
      const missing = entry.requests.filter((request) => !existsSync(request.file))
      if (missing.length === 0) await rm(file, { force: true })
      else entries.push({ ...entry, requests: missing })
    }
    return entries
  }

  private fileOf(label: string, tag: string): string {
    return join(this.directory, `${safeName(label)}--${safeName(tag)}.json`)
  }
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_')
}
