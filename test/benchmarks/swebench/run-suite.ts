/** Runs the SWE-bench suite as a user would (`MODEL=… vitest run suites/swebench`) and reads every item's record from Vitest's JSON report. */
import { readFileSync } from 'node:fs'
import type { Prediction } from '../../../suites/swebench/predictions.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { datasetEnv } from '../../support/test-datasets.ts'

export function runSwebenchSuite(env: Record<string, string>) {
  return runSuiteForRecords('swebench', { ...datasetEnv(), TESTBENCH_SWEBENCH_CONTEXT: 'none', ...env })
}

export function readPredictions(path: string): Prediction[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Prediction)
}
