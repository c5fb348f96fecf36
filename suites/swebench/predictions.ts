/**
 * Every run writes its patches as SWE-bench predictions (`{instance_id,
 * model_name_or_path, model_patch}`, one JSON object a line), so that a run can be
 * cross-checked with the official harness and replayed with `MODEL=replay:<file>`.
 * The first prediction of a run starts the file afresh, whichever worker writes it (harness/run-slots.ts).
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { inject } from 'vitest'
import { firstInRun } from '../../harness/run-slots.ts'

export interface Prediction {
  instance_id: string
  model_name_or_path: string
  model_patch: string
}

/**
 * `<report dir>/swebench/<model>.predictions.jsonl`, the model label made safe for a file name;
 * samples after the first get files of their own (`<model>.sample-1.predictions.jsonl`), since the
 * official harness takes one prediction per instance.
 */
export function predictionsPath(reportDir: string, model: string, sample = 0): string {
  const name = `${model.replace(/[^\w.-]+/g, '_')}${sample === 0 ? '' : `.sample-${sample}`}`
  return join(reportDir, 'swebench', `${name}.predictions.jsonl`)
}

const writes = new Map<string, Promise<void>>()

/** Appends one prediction; appends to one file happen in call order. */
export function writePrediction(path: string, prediction: Prediction, slots: string | undefined = runSlots()): Promise<void> {
  const line = `${JSON.stringify(prediction)}\n`
  const previous = writes.get(path)
  const next = previous === undefined ? startFile(path, line, slots) : previous.catch(() => undefined).then(() => appendFile(path, line))
  writes.set(path, next)
  return next
}

/** This process's first line: the run's first starts the file afresh, the others append after it has. */
async function startFile(path: string, line: string, slots: string | undefined): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  if (slots === undefined) return writeFile(path, line)
  const first = await firstInRun(slots, `file:${path}`, () => writeFile(path, line))
  if (!first) await appendFile(path, line)
}

/** The run's slot server, in a benchmark worker; none elsewhere (a script, the harness's own tests). */
function runSlots(): string | undefined {
  try {
    return inject('runSlots')
  } catch {
    return undefined
  }
}
