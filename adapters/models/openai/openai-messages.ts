import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import type { ChatMessage, ImageInput, ToolDefinition } from '../model-adapter.ts'

/**
 * The conversation in chat completions' form: images as `image_url` data-URL parts (only for a model that
 * can see), assistant tool calls as `tool_calls`, results as `tool` messages naming their call. The reasoning
 * goes back only beside tool calls and only in the field it came in (the reply's `sendBack`): DeepSeek's
 * thinking mode answers 400 without its `reasoning_content` there, OpenRouter asks for its `reasoning_details`
 * unmodified; the official API has no such field and refuses unknown ones.
 */
export function openaiMessages(messages: readonly ChatMessage[], canSee: boolean): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content }
      case 'user': {
        const images = canSee ? (message.images ?? []) : []
        if (images.length === 0) return { role: 'user', content: message.content }
        const parts: ChatCompletionContentPart[] = [{ type: 'text', text: message.content }, ...images.map(imagePart)]
        return { role: 'user', content: parts }
      }
      case 'assistant': {
        const calls = message.toolCalls ?? []
        if (calls.length === 0) return { role: 'assistant', content: message.content }
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          ...message.sendBack,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.callId, content: message.content }
    }
  })
}

export function openaiTools(tools: readonly ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }))
}

function imagePart(image: ImageInput): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.base64}` } }
}
