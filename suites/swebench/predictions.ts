/**
 * Every run writes its patches as SWE-bench predictions (`{instance_id,
 * model_name_or_path, model_patch}`, one JSON object a line), so that a run can be
 * cross-checked with the official harness and replayed with `MODEL=replay:<file>`.
 * They are written from the records at the end of the run (the suite's part files run in
 * separate workers), so one run, a run of some parts, and merged shards write alike.
 */
import { join } from 'node:path'
import { writeFileAtomicallySync } from '../../harness/atomic-file.ts'
import { groupBy } from '../../harness/group-by.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'

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

/**
 * Where an agent run's trajectory goes, beside the predictions file as mini-swe-agent writes
 * `<instance>/<instance>.traj.json` beside `preds.json`: `<model>.trajectories/<instance>/<instance>.traj.json`.
 */
export function trajectoryPath(reportDir: string, model: string, sample: number, instanceId: string): string {
  const directory = predictionsPath(reportDir, model, sample).replace(/\.predictions\.jsonl$/, '.trajectories')
  const name = instanceId.replace(/[^\w.-]+/g, '_')
  return join(directory, name, `${name}.traj.json`)
}

/** One predictions file per model and sample, from the records of items that got a reply (a provider error has no patch). */
export function writePredictions(reportDir: string, records: readonly ItemRecord[]): void {
  const answered = records.filter((record) => record.outcome !== 'provider_error')
  for (const group of groupBy(answered, (record) => `${record.model}\u0000${record.sample}`).values()) {
    const [first] = group
    if (first === undefined) continue
    const lines = group.map((record): Prediction => ({
      instance_id: record.itemId,
      model_name_or_path: record.model,
      model_patch: record.extracted ?? '',
    }))
    writeFileAtomicallySync(
      predictionsPath(reportDir, first.model, first.sample),
      lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    )
  }
}
