import type { Message, Tool } from 'ollama'
import type { ChatMessage, ToolDefinition } from '../model-adapter.ts'
import { argumentsObject } from '../tool-arguments.ts'

/**
 * The conversation in Ollama's /api/chat form: images as base64 `images` (only for a model that can see),
 * the assistant's thinking and its calls with their arguments as objects, results as `tool` messages
 * naming their tool (`tool_name`: Ollama's calls have no ids to answer).
 */
export function ollamaMessages(messages: readonly ChatMessage[], canSee: boolean): Message[] {
  return messages.map((message): Message => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content }
      case 'user': {
        const images = canSee ? (message.images ?? []) : []
        return {
          role: 'user',
          content: message.content,
          ...(images.length === 0 ? {} : { images: images.map((image) => image.base64) }),
        }
      }
      case 'assistant': {
        const calls = message.toolCalls ?? []
        return {
          role: 'assistant',
          content: message.content,
          ...(message.reasoning === undefined ? {} : { thinking: message.reasoning }),
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call) => ({
                  function: { name: call.name, arguments: argumentsObject(call.arguments) },
                })),
              }),
        }
      }
      case 'tool':
        return { role: 'tool', content: message.content, tool_name: message.toolName }
    }
  })
}

export function ollamaTools(tools: readonly ToolDefinition[]): Tool[] {
  // ollama-js types `parameters` as a narrow subset of JSON schema; the server takes any JSON schema object.
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as NonNullable<Tool['function']['parameters']>,
    },
  }))
}
