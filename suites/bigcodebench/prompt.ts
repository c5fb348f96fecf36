/** What a model is asked, as the official BigCodeBench generation asks chat models. */
import type { BigCodeBenchTask } from './dataset.ts'
import type { Split } from './options.ts'

export const INSTRUCTION_PREFIX =
  'Please provide a self-contained Python script that solves the following problem in a markdown code block:'

/** Complete: the prefix and the complete prompt in a fence; Instruct: the prefix and the instruction. */
export function chatPrompt(task: BigCodeBenchTask, split: Split): string {
  if (split === 'complete') return `${INSTRUCTION_PREFIX}\n\`\`\`\n${task.completePrompt.trim()}\n\`\`\`\n`
  return `${INSTRUCTION_PREFIX}\n${task.instructPrompt.trim()}\n`
}
