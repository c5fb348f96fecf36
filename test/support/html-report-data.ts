import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { parse } from 'flatted'
import type { RunnerTask, RunnerTestFile } from 'vitest'

/** A benchmark item as the single-file html report holds it. */
export interface ShownItem {
  name: string
  tags: string[]
  scores: string | undefined
  outcome: string | undefined
  /** Vitest's state for the test: `pass`, `fail`, `skip`… */
  state: string | undefined
}

/** The benchmark items and declared tags of an html report written by Vitest's `html` reporter with `singleFile`, read from the data it inlines. */
export function itemsOfHtmlReport(file: string): { items: ShownItem[]; tags: string[] } {
  const html = readFileSync(file, 'utf8')
  const base64 = /\("([A-Za-z0-9+/=]+)"\)\)<\/script>/.exec(html)?.[1]
  if (base64 === undefined) throw new Error(`${file} holds no inlined report data`)
  const data = parse(gunzipSync(Buffer.from(base64, 'base64')).toString()) as {
    files: RunnerTestFile[]
    config: { tags?: Array<{ name: string }> }
  }
  const items: ShownItem[] = []
  const walk = (task: RunnerTask) => {
    if (task.type === 'test' && task.meta.bench)
      items.push({
        name: task.name,
        tags: task.tags ?? [],
        scores: task.meta.scores,
        outcome: task.meta.outcome,
        state: task.result?.state ?? task.mode,
      })
    if (task.type === 'suite') task.tasks.forEach(walk)
  }
  data.files.forEach(walk)
  return { items, tags: (data.config.tags ?? []).map((tag) => tag.name) }
}
