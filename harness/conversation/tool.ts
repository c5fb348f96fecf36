import type { JsonValue, ToolDefinition } from '../../adapters/models/model-adapter.ts'

/** The arguments of a tool call, parsed, checked against the tool's schema (required fields and their types). */
export type ToolArguments = { [key: string]: JsonValue }

/**
 * What a tool answers: `output` on success, `error` when the call failed (the model's mistake, told to
 * it so that it can go on). `ends` ends the conversation after this call (a delivery, a submission).
 */
export interface ToolAnswer {
  ok: boolean
  output: string
  error: string
  ends?: boolean
}

/**
 * A tool of an item: its definition as the model sees it, and a small function of the item that answers
 * a call. A tool that executes anything (compiles, runs, evaluates) does it in the sandbox. A tool throws
 * only for a failure of ours (the sandbox broke): that ends the item as `infra_error`, never the model's fault.
 */
export interface ConversationTool {
  definition: ToolDefinition
  run(args: ToolArguments): Promise<ToolAnswer>
}

export function toolSucceeded(output: string, ends?: boolean): ToolAnswer {
  return { ok: true, output, error: '', ...(ends ? { ends } : {}) }
}

export function toolFailed(error: string): ToolAnswer {
  return { ok: false, output: '', error }
}
