import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * openai/human-eval is nobody's package: a checkout of it at 6d43fb9 (brought by hand, never committed here) is
 * named by this variable to the HumanEval agreement test and to `npm run bench:humaneval`.
 */
export const HUMAN_EVAL_DIR_VARIABLE = 'TESTBENCH_HUMAN_EVAL_DIR'
export const HUMAN_EVAL_COMMIT = '6d43fb9'

/** Why `checkout` cannot be run as human-eval, or undefined when it can. */
export function humanEvalCheckoutMissing(checkout: string | undefined): string | undefined {
  const get = `git clone https://github.com/openai/human-eval && git -C human-eval checkout ${HUMAN_EVAL_COMMIT}, then set ${HUMAN_EVAL_DIR_VARIABLE} to it`
  if (checkout === undefined || checkout === '')
    return `needs openai/human-eval, and ${HUMAN_EVAL_DIR_VARIABLE} is not set: ${get}`
  if (!existsSync(join(checkout, 'human_eval', 'execution.py')))
    return `needs openai/human-eval, and ${HUMAN_EVAL_DIR_VARIABLE}=${checkout} holds no human_eval/execution.py: ${get}`
  return undefined
}
