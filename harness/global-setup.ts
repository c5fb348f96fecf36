import type { TestProject } from 'vitest/node'
import { ModelSpecError } from '../adapters/models/model-spec.ts'
import { ProviderError } from '../adapters/models/model-adapter.ts'
import { resolveModels } from './resolve-models.ts'
import { unknownKnobWarnings } from './knob-table.ts'
import { settingsProblems } from './validate-settings.ts'

/** Runs once before the benchmark suites: resolves MODEL and checks every model, then hands them to the test files. */
export default async function setup(project: TestProject): Promise<void> {
  for (const warning of unknownKnobWarnings()) console.warn(`testbench: ${warning}`)
  const problems = await settingsProblems()
  if (problems.length > 0) {
    const error = new Error(`The run's settings are not usable; nothing was asked or run:\n  ${problems.join('\n  ')}`)
    error.stack = error.message
    throw error
  }
  try {
    project.provide('benchModels', await resolveModels(process.env.MODEL))
  } catch (error) {
    // The message says everything; a stack trace would only bury it.
    if (error instanceof ProviderError || error instanceof ModelSpecError) error.stack = `${error.name}: ${error.message}`
    throw error
  }
}
