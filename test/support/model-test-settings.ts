import type { ToolDefinition } from '../../adapters/models/model-adapter.ts'

/**
 * Short limits so that a stalled attempt is given up quickly and retries do not wait; the idle timeout
 * stays long enough that a whole reply on a busy machine is not taken for a stall.
 */
export const FAST_RETRIES = {
  TESTBENCH_IDLE_TIMEOUT: '1',
  TESTBENCH_RETRY_DELAY: '0.01',
  TESTBENCH_RETRIES: '8',
  TESTBENCH_CONCURRENCY: '4',
}

/** Two tools in the shape PE-Bench's tool mode offers them, for the wire tests of tool calls. */
export const WORKSPACE_TOOLS: ToolDefinition[] = [
  {
    name: 'write_file',
    description: 'Writes a file.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  {
    name: 'syntax_check',
    description: 'Checks a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
]
