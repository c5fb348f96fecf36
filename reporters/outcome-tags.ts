import type { TestTagDefinition } from 'vitest'
import type { TestCase } from 'vitest/node'
import { NOT_THE_MODELS_FAULT, OUTCOMES, type Outcome } from '../adapters/outcome.ts'
import type { ItemRecord } from '../harness/records/item-record.ts'
import { ITEM_MARKS } from '../harness/records/item-marks.ts'

/** The tag every item whose outcome is not the model's fault gets besides its outcome's. */
export const NOT_THE_MODELS_FAULT_TAG = 'not_the_models_fault'

const DESCRIPTIONS: Record<Outcome, string> = {
  passed: 'the model’s answer is right',
  wrong_answer: 'the model’s answer is wrong',
  no_answer: 'nothing could be extracted from the reply',
  compile_error: 'the extracted program does not compile',
  runtime_error: 'the program crashed',
  timeout: 'the program ran out of time',
  memory: 'the program ran out of memory',
  provider_error: 'the model could not be asked (not the model’s fault)',
  infra_error: 'the harness or its environment broke (not the model’s fault)',
}

/**
 * The outcomes as Vitest tags, which the UI and the html report filter on (`tag:timeout`,
 * `tag:provider_error || infra_error`) and show beside the item's name. The plugin declares them in the
 * config, which the UI's tag filter needs; the score reporter tags each item as it finishes.
 */
export const OUTCOME_TAGS: TestTagDefinition[] = [
  ...OUTCOMES.map((outcome) => ({ name: outcome, description: `outcome: ${DESCRIPTIONS[outcome]}` })),
  {
    name: NOT_THE_MODELS_FAULT_TAG,
    description: 'provider_error or infra_error: not the model’s fault, kept apart from its failures',
  },
  ...Object.entries(ITEM_MARKS).map(([name, description]) => ({ name, description: `mark: ${description}` })),
]

/**
 * Tags the item with its outcome and its marks, in the run's own state: what the html report, blob reports (so a
 * merged run), and a UI page loaded after the item finished show. A UI page open during the run has
 * the tags it saw when the items were collected, so it shows them once reloaded.
 */
export function tagOutcome(testCase: TestCase, record: ItemRecord): void {
  if (record.outcome === undefined) return
  const tags =
    record.outcome && NOT_THE_MODELS_FAULT.has(record.outcome)
      ? [record.outcome, NOT_THE_MODELS_FAULT_TAG]
      : [record.outcome]
  // TestCase.tags is the test's own list (the run's state), which the reporters that follow serialize.
  for (const tag of [...tags, ...(record.marks ?? [])]) if (!testCase.tags.includes(tag)) testCase.tags.push(tag)
}

/** Adds the outcome tags to a config's tags (each once), so that `tag:` filters accept them. */
export function declareOutcomeTags(config: { tags: TestTagDefinition[] }): void {
  for (const tag of OUTCOME_TAGS) if (!config.tags.some((known) => known.name === tag.name)) config.tags.push(tag)
}
