import type { TestProject } from 'vitest/node'
import { ModelSpecError } from '../adapters/models/model-spec.ts'
import { ProviderError } from '../adapters/models/model-adapter.ts'
import { resolveModels } from './resolve-models.ts'

/** Runs once before the benchmark suites: resolves MODEL and checks every model, then hands them to the test files. */
export default async function setup(project: TestProject): Promise<void> {
  try {
    project.provide('benchModels', await resolveModels(process.env.MODEL))
  } catch (error) {
    // The message says everything; a stack trace would only bury it.
    if (error instanceof ProviderError || error instanceof ModelSpecError) error.stack = `${error.name}: ${error.message}`
    throw error
  }
}
