import { fileURLToPath } from 'node:url'
import { readJsonLines } from '../../../harness/datasets/dataset-file.ts'
import { bigCodeBenchTask, type BigCodeBenchTask } from '../../../suites/bigcodebench/dataset.ts'

/** Made-up tasks in BigCodeBench's format (fixtures/bigcodebench/make-tasks.py says how each one ends). */
export async function fixtureTasks(): Promise<Map<number, BigCodeBenchTask>> {
  const file = fileURLToPath(new URL('../../../fixtures/bigcodebench/tasks.jsonl', import.meta.url))
  const rows = await readJsonLines(file)
  return new Map(
    rows.map((row, index) => {
      const task = bigCodeBenchTask(row, `${file} row ${index + 1}`)
      return [Number(task.id.split('/')[1]), task]
    }),
  )
}
