import type { JsonValue, ToolDefinition } from '../../adapters/models/model-adapter.ts'
import type { ToolArguments } from './tool.ts'

/**
 * The arguments of a call as the model wrote them, parsed and checked against the tool's schema: its
 * `required` fields present, and each field it declares of the JSON type it declares. The model's
 * mistakes come back as the error it is told; nothing else of the schema is enforced (each tool checks
 * what it needs, as upstream agents do). Empty arguments are `{}`: some servers send none for a call
 * without parameters.
 */
export function parseToolArguments(
  text: string,
  definition: ToolDefinition,
): { args: ToolArguments } | { error: string } {
  let parsed: unknown
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text)
  } catch {
    return { error: 'Tool arguments are not valid JSON.' }
  }
  if (!isObject(parsed)) return { error: 'Tool arguments must be a JSON object.' }
  const required = definition.parameters.required
  for (const name of Array.isArray(required) ? required : []) {
    if (typeof name === 'string' && !(name in parsed)) return { error: `Missing required argument: ${name}.` }
  }
  const properties = definition.parameters.properties
  if (isObject(properties)) {
    for (const [name, schema] of Object.entries(properties)) {
      const value = parsed[name]
      if (value === undefined || !isObject(schema) || typeof schema.type !== 'string') continue
      if (!hasType(value, schema.type)) return { error: `Argument ${name} must be ${article(schema.type)}.` }
    }
  }
  return { args: parsed }
}

function hasType(value: JsonValue, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'array':
      return Array.isArray(value)
    case 'object':
      return isObject(value)
    case 'null':
      return value === null
    default:
      return true
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function isObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
