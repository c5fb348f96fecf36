/** The whole program a reply holds, by BigCodeBench's rules. */
import type { ChatReply } from '../../adapters/models/model-adapter.ts'
import { dropLanguageTagLine, fencedBlocks, stripReasoning } from '../../harness/extract-code.ts'
import { extractSolution, type ExtractedSolution } from '../../harness/python-tasks/extract-solution.ts'
import type { PromptMode } from '../../harness/python-tasks/options.ts'
import type { BigCodeBenchTask } from './dataset.ts'

export interface BigCodeBenchSolution {
  code: string
  from: ExtractedSolution['from'] | 'complete prompt + indented body'
}

const PYTHON_TAGS = ['python', 'python3', 'py']

/**
 * A replayed `solution` is a whole program; a completion continues the complete prompt; a chat
 * reply goes through the "calibrated" rule (`sanitize.py --calibrate`): a fenced block that
 * starts with an indented body gets the complete prompt put back in front of it. Otherwise the
 * block that defines the entry point (else the largest block) is the program, as in HumanEval.
 */
export function solutionFrom(
  task: BigCodeBenchTask,
  reply: Pick<ChatReply, 'text' | 'form'>,
  mode: PromptMode,
): BigCodeBenchSolution | undefined {
  if (reply.text.trim() === '') return undefined
  if (reply.form === 'solution') return { code: reply.text, from: 'whole program' }
  if (reply.form === 'completion' || mode === 'completion')
    return { code: `${task.completePrompt}${reply.text}`, from: 'prompt + completion' }
  const body = indentedBody(reply.text)
  if (body !== undefined) return { code: `${task.completePrompt}${body}`, from: 'complete prompt + indented body' }
  return extractSolution(reply.text, task.entryPoint)
}

/** The first Python fenced block, when its first line of code is indented: a function body on its own. */
export function indentedBody(reply: string): string | undefined {
  const block = fencedBlocks(stripReasoning(reply)).find(
    (candidate) => candidate.language === '' || PYTHON_TAGS.includes(candidate.language),
  )
  if (block === undefined) return undefined
  const code = dropLanguageTagLine(block.code, PYTHON_TAGS)
  const firstLine = code.split('\n').find((line) => line.trim() !== '')
  return firstLine !== undefined && /^[ \t]/.test(firstLine) ? code : undefined
}
