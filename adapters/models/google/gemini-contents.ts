import type { Content, Part, Tool } from '@google/genai'
import type { ChatMessage, ToolDefinition } from '../model-adapter.ts'
import { argumentsObject } from '../tool-arguments.ts'

/**
 * The conversation without its system messages, in Gemini's form: images as `inlineData` parts (only for
 * a model that can see), the model's calls as `functionCall` parts each with its `thoughtSignature` as
 * received (Gemini 3 answers 400 without it), and all the results of one turn as `functionResponse` parts
 * of one content.
 */
export function geminiContents(messages: readonly ChatMessage[], canSee: boolean): Content[] {
  const contents: Content[] = []
  let results: Part[] | undefined
  for (const message of messages) {
    if (message.role !== 'tool') results = undefined
    switch (message.role) {
      case 'system':
        break
      case 'user': {
        const images = canSee ? (message.images ?? []) : []
        contents.push({
          role: 'user',
          parts: [
            ...images.map((image): Part => ({ inlineData: { mimeType: image.mediaType, data: image.base64 } })),
            { text: message.content },
          ],
        })
        break
      }
      case 'assistant': {
        const parts: Part[] = []
        if (message.content !== '' || message.reasoningSignature !== undefined) {
          parts.push({
            text: message.content,
            ...(message.reasoningSignature === undefined ? {} : { thoughtSignature: message.reasoningSignature }),
          })
        }
        for (const call of message.toolCalls ?? []) {
          parts.push({
            functionCall: { id: call.id, name: call.name, args: argumentsObject(call.arguments) },
            ...(call.signature === undefined ? {} : { thoughtSignature: call.signature }),
          })
        }
        contents.push({ role: 'model', parts: parts.length === 0 ? [{ text: '' }] : parts })
        break
      }
      case 'tool': {
        if (results === undefined) {
          results = []
          contents.push({ role: 'user', parts: results })
        }
        const response = message.isError ? { error: message.content } : { output: message.content }
        results.push({ functionResponse: { id: message.callId, name: message.toolName, response } })
        break
      }
    }
  }
  return contents
}

/** The tools as one `functionDeclarations` list, their parameters given as the JSON schema they are. */
export function geminiTools(tools: readonly ToolDefinition[]): Tool[] {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    },
  ]
}
