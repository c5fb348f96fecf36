import { OpenAIAdapter, type OpenAIEndpoint } from '../openai/openai.ts'
import { apiKeyOf, baseUrlOf, providerRow } from '../providers.ts'

/** OpenRouter is an OpenAI-compatible API with its own address and key. */
export function openrouterEndpoint(env: NodeJS.ProcessEnv = process.env): OpenAIEndpoint {
  const row = providerRow('openrouter')
  return {
    provider: row.prefix,
    name: row.name,
    baseURL: baseUrlOf(row, env),
    apiKey: apiKeyOf(row, env),
    howToFix: row.howToFix,
    officialApi: false,
    thinkStyle: 'openrouter',
    row,
  }
}

export function openrouterAdapter(model: string, env: NodeJS.ProcessEnv = process.env): OpenAIAdapter {
  return new OpenAIAdapter(model, openrouterEndpoint(env), env)
}
