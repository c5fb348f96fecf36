import type { TestProject } from 'vitest/node'
import { ModelSpecError } from '../../adapters/models/model-spec.ts'
import { ProviderError } from '../../adapters/models/model-adapter.ts'
import { resolveModels } from '../resolve-models.ts'
import { startSlotServer } from './run-slots.ts'
import { stopBeforeItems } from '../stop-before-items.ts'
import { COST_LIMIT, unpricedModels } from './cost-budget.ts'
import { pricesFromEnv } from './prices.ts'
import { batchMode } from '../batches/batch-knobs.ts'
import { startBatchServer } from '../batches/batch-server.ts'

declare module 'vitest' {
  interface ProvidedContext {
    /** The address of the run's slot server (harness/run-wide/run-slots.ts), which bounds model requests across workers. */
    runSlots: string
    /** The address of the run's batch server (harness/batches/batch-server.ts), when TESTBENCH_BATCH is on. */
    runBatches?: string
  }
}

/**
 * Runs once before the benchmark suites: resolves MODEL and checks every model, then hands them to the test files;
 * starts the slot server that bounds requests in flight across the workers running the suites' part files.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let models
  try {
    models = await resolveModels(process.env.MODEL)
    if (COST_LIMIT.read() !== undefined) {
      const asked = models.filter((model) => model.provider !== 'reference' && model.provider !== 'replay')
      const unpriced = unpricedModels(
        asked.map((model) => model.label),
        pricesFromEnv(),
      )
      if (unpriced !== undefined) stopBeforeItems(unpriced)
    }
    project.provide('benchModels', models)
  } catch (error) {
    // The message says everything; a stack trace would only bury it. Anything else is a bug: its stack helps.
    if (error instanceof ProviderError || error instanceof ModelSpecError) stopBeforeItems(error.message)
    throw error
  }
  const slots = await startSlotServer()
  project.provide('runSlots', slots.address)
  const batches = batchMode() ? await startBatchServer(models) : undefined
  if (batches !== undefined) project.provide('runBatches', batches.address)
  return async () => {
    await batches?.close()
    await slots.close()
  }
}
