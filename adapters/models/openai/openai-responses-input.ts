import type { FunctionTool, ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses'
import type { ChatMessage, ImageInput, JsonValue, ToolCall, ToolDefinition } from '../model-adapter.ts'

/** A request's conversation in the Responses API's form: the system prompt apart, every other turn an input item. */
export interface ResponsesInput {
  instructions?: string
  input: ResponseInputItem[]
}

/**
 * The conversation as the Responses API takes it statelessly (`store: false`): the leading system messages as
 * `instructions`, a later one as a `developer` message; a user's images as `input_image` data URLs (only for a model
 * that can see); each assistant turn as the output items it came as, in order (the reply's `sendBack.output`: its
 * `reasoning` items, id and `encrypted_content` as received, before the `function_call` they led to, and its
 * messages with their `phase`), or, for a turn without them, its text and calls; each tool result as a
 * `function_call_output` naming the call's `call_id`.
 */
export function responsesInput(messages: readonly ChatMessage[], canSee: boolean): ResponsesInput {
  const leading = messages.findIndex((message) => message.role !== 'system')
  const system = messages.slice(0, leading === -1 ? messages.length : leading)
  const instructions = system.map((message) => message.content).join('\n\n')
  const input = messages.slice(system.length).flatMap((message): ResponseInputItem[] => {
    switch (message.role) {
      case 'system':
        return [{ role: 'developer', content: message.content }]
      case 'user': {
        const images = canSee ? (message.images ?? []) : []
        if (images.length === 0) return [{ role: 'user', content: message.content }]
        const parts: ResponseInputContent[] = [{ type: 'input_text', text: message.content }, ...images.map(imagePart)]
        return [{ role: 'user', content: parts }]
      }
      case 'assistant':
        return assistantItems(message.content, message.toolCalls ?? [], message.sendBack?.output)
      case 'tool':
        return [{ type: 'function_call_output', call_id: message.callId, output: message.content }]
    }
  })
  return { ...(instructions === '' ? {} : { instructions }), input }
}

export function responsesTools(tools: readonly ToolDefinition[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }))
}

/**
 * The output items of the reply, as received, with its calls as the conversation knows them (the ids it gave the
 * results); a turn without them (another API's reply, a replayed trajectory) is its text and then its calls.
 */
function assistantItems(text: string, calls: readonly ToolCall[], output: JsonValue | undefined): ResponseInputItem[] {
  const items: ResponseInputItem[] = []
  const left = [...calls]
  if (Array.isArray(output)) {
    for (const item of output) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue
      if (item.type === 'function_call') {
        const call = left.shift()
        if (call !== undefined) items.push(functionCall(call))
      } else items.push(item as unknown as ResponseInputItem)
    }
  } else if (text !== '') items.push({ role: 'assistant', content: text })
  return [...items, ...left.map(functionCall)]
}

function functionCall(call: ToolCall): ResponseInputItem {
  return { type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments }
}

function imagePart(image: ImageInput): ResponseInputContent {
  return { type: 'input_image', detail: 'auto', image_url: `data:${image.mediaType};base64,${image.base64}` }
}
