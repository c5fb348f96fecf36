import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages'
import type { ChatMessage, ToolDefinition } from '../model-adapter.ts'
import { argumentsObject } from '../tool-arguments.ts'

/**
 * The conversation without its system messages, in Anthropic's form: images as base64 `image` blocks (only
 * for a model that can see), the assistant's thinking blocks (with their signatures, as received) before its text and
 * `tool_use` blocks, and tool results as `tool_result` blocks in the user message that follows the calls.
 */
export function anthropicMessages(messages: readonly ChatMessage[], canSee: boolean): MessageParam[] {
  const mapped: MessageParam[] = []
  /** Consecutive user-side blocks (results, then perhaps the user's own text) go in one user message. */
  const userBlocks = (): ContentBlockParam[] => {
    const last = mapped.at(-1)
    if (last?.role === 'user' && Array.isArray(last.content)) return last.content
    const blocks: ContentBlockParam[] = []
    mapped.push({ role: 'user', content: blocks })
    return blocks
  }
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break
      case 'user': {
        const images = canSee ? (message.images ?? []) : []
        const follows = mapped.at(-1)?.role === 'user'
        if (images.length === 0 && !follows) {
          mapped.push({ role: 'user', content: message.content })
          break
        }
        userBlocks().push(
          ...images.map((image): ContentBlockParam => ({
            type: 'image',
            source: { type: 'base64', media_type: image.mediaType, data: image.base64 },
          })),
          { type: 'text', text: message.content },
        )
        break
      }
      case 'assistant': {
        const blocks: ContentBlockParam[] = []
        const thinking = message.sendBack?.thinking
        // Every thinking and redacted_thinking block the reply had, unmodified and in order (`sendBack`).
        if (Array.isArray(thinking)) blocks.push(...(thinking as unknown as ContentBlockParam[]))
        else if (message.reasoning !== undefined && message.reasoningSignature !== undefined) {
          blocks.push({ type: 'thinking', thinking: message.reasoning, signature: message.reasoningSignature })
        }
        if (message.content !== '') blocks.push({ type: 'text', text: message.content })
        for (const call of message.toolCalls ?? [])
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) })
        mapped.push({ role: 'assistant', content: blocks.length === 0 ? '' : blocks })
        break
      }
      case 'tool':
        userBlocks().push({
          type: 'tool_result',
          tool_use_id: message.callId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        })
        break
    }
  }
  return mapped
}

export function anthropicTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
  }))
}
