import type { ToolDefinition } from '../../../adapters/models/model-adapter.ts'
import { SYNTAX_CHECK_LANGUAGES } from './syntax-check.ts'

/**
 * The nine tools as upstream's `inference-with-tools.py` sends them: its names, descriptions and
 * parameter schemas, with `strict` (and `oneOf`, `anyOf`, `allOf`, which it has none of) left out, as
 * its `get_api_tools` strips them before every request.
 */
const PATH = { type: 'string', description: 'Virtual workspace-relative file path.', minLength: 1 }

function tool(
  name: string,
  description: string,
  properties: ToolDefinition['parameters'],
  required: string[],
): ToolDefinition {
  return {
    name,
    description,
    parameters: {
      type: 'object',
      properties,
      ...(required.length === 0 ? {} : { required }),
      additionalProperties: false,
    },
  }
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  tool(
    'list_files',
    'List the current virtual workspace files. Use this first when you need to discover what files exist.',
    {},
    [],
  ),
  tool(
    'read_file',
    'Read one virtual workspace file by relative path. Use this to inspect existing code before editing.',
    { path: PATH },
    ['path'],
  ),
  tool(
    'write_file',
    'Create or fully replace one virtual workspace file. The content must be the complete file contents, not a diff.',
    { path: PATH, content: { type: 'string', description: 'Exact full file content.' } },
    ['path', 'content'],
  ),
  tool('delete_file', 'Delete one virtual workspace file by relative path.', { path: PATH }, ['path']),
  tool(
    'rename_file',
    'Rename or move one virtual workspace file from `source_path` to `destination_path`.',
    {
      source_path: { type: 'string', description: 'Existing virtual workspace-relative file path.', minLength: 1 },
      destination_path: { type: 'string', description: 'New virtual workspace-relative file path.', minLength: 1 },
    },
    ['source_path', 'destination_path'],
  ),
  tool(
    'syntax_check',
    'Check syntax for python, java, rust, or clojure using one virtual workspace file path.',
    { language: { type: 'string', description: 'Language to check.', enum: [...SYNTAX_CHECK_LANGUAGES] }, path: PATH },
    ['language', 'path'],
  ),
  tool(
    'calculator',
    'Evaluate a mathematical expression for planning or verification. Use only for arithmetic, not for general code execution.',
    { expression: { type: 'string', description: 'Mathematical expression to evaluate.', minLength: 1 } },
    ['expression'],
  ),
  tool(
    'update_plan',
    'Update the current task plan with a short explanation and a list of steps. Keep the explanation and steps concise. Use this to track progress across multiple tool calls.',
    {
      explanation: { type: 'string', description: 'Optional short explanation of the current phase.' },
      plan: {
        type: 'array',
        description: 'Ordered list of plan steps and their statuses.',
        minItems: 1,
        maxItems: 8,
        items: {
          type: 'object',
          properties: {
            step: { type: 'string', description: 'Human-readable description of the step.', minLength: 1 },
            status: {
              type: 'string',
              description: 'Current state of the step.',
              enum: ['pending', 'in_progress', 'completed'],
            },
          },
          required: ['step', 'status'],
          additionalProperties: false,
        },
      },
    },
    ['plan'],
  ),
  tool(
    'deliver_code',
    'Finish the task and deliver the final runnable program using one virtual workspace file path. Call this only when the code is complete.',
    { path: { type: 'string', description: 'Virtual workspace-relative file path to deliver.', minLength: 1 } },
    ['path'],
  ),
]
