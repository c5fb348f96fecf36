import { ProviderError } from './model-adapter.ts'
import type { WireProtocol } from './requests/wire-check.ts'

/**
 * The hosted providers, one row each: what `MODEL=<prefix>:…` means, which wire protocol it speaks,
 * and the variables users already set for its address and key. Each provider's file holds only
 * what differs from its protocol's adapter.
 */
export interface ProviderRow {
  readonly prefix: string
  /** As messages name it. */
  readonly name: string
  readonly protocol: WireProtocol
  readonly baseUrlVariable: string
  readonly defaultBaseUrl: string
  /** Where the API key is read from, first match wins; the first is the one messages name. Empty: no key. */
  readonly keyVariables: readonly string[]
  /** What to tell a user whose endpoint never answered. */
  readonly howToFix: string
  /** A model to show in MODEL's list of accepted forms. */
  readonly example: string
  /**
   * Whether Ollama also serves models named like this prefix (a `mistral` row would). Only then does
   * `prefix:<Ollama tag>` (`mistral:7b`) stay Ollama's; otherwise whatever follows the prefix is this provider's model.
   */
  readonly sharesNameWithOllamaModels?: boolean
}

export const PROVIDERS = [
  {
    prefix: 'ollama',
    name: 'Ollama',
    protocol: 'ollama',
    baseUrlVariable: 'OLLAMA_HOST',
    defaultBaseUrl: 'http://127.0.0.1:11434',
    keyVariables: [],
    howToFix:
      'Start Ollama with `ollama serve` (or the desktop app), set OLLAMA_HOST to where it runs, or pick another provider, e.g. MODEL=openai:gpt-4o or MODEL=reference.',
    example: 'ollama:qwen2.5:7b',
  },
  {
    prefix: 'openai',
    name: 'OpenAI',
    protocol: 'openai',
    baseUrlVariable: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    keyVariables: ['OPENAI_API_KEY'],
    howToFix: 'Check your network, or set OPENAI_BASE_URL to an OpenAI-compatible server.',
    example: 'openai:gpt-4o (also any OpenAI-compatible server via OPENAI_BASE_URL)',
  },
  {
    prefix: 'anthropic',
    name: 'Anthropic',
    protocol: 'anthropic',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com',
    keyVariables: ['ANTHROPIC_API_KEY'],
    howToFix: 'Check your network, ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL.',
    example: 'anthropic:claude-sonnet-4-5',
  },
  {
    prefix: 'google',
    name: 'Gemini',
    protocol: 'gemini',
    baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    howToFix: 'Check your network, GEMINI_API_KEY, or GOOGLE_GEMINI_BASE_URL.',
    example: 'google:gemini-2.5-flash',
  },
  {
    prefix: 'openrouter',
    name: 'OpenRouter',
    protocol: 'openai',
    baseUrlVariable: 'OPENROUTER_BASE_URL',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    keyVariables: ['OPENROUTER_API_KEY'],
    howToFix: 'Check your network and OPENROUTER_API_KEY.',
    example: 'openrouter:meta-llama/llama-3.3-70b-instruct',
  },
] as const satisfies readonly ProviderRow[]

export type HostedProvider = (typeof PROVIDERS)[number]['prefix']
export const HOSTED_PROVIDERS: readonly HostedProvider[] = PROVIDERS.map((row) => row.prefix)

export function providerRow(prefix: HostedProvider): ProviderRow {
  const row = PROVIDERS.find((each) => each.prefix === prefix)
  if (row === undefined) throw new Error(`no provider ${prefix} in the table`)
  return row
}

/** The provider's address: its variable when set, else its default. */
export function baseUrlOf(row: ProviderRow, env: NodeJS.ProcessEnv): string {
  return env[row.baseUrlVariable]?.trim() || row.defaultBaseUrl
}

/** The provider's API key, or undefined when none of its variables is set. */
export function apiKeyOf(row: ProviderRow, env: NodeJS.ProcessEnv): string | undefined {
  for (const variable of row.keyVariables) {
    const value = env[variable]?.trim()
    if (value) return value
  }
  return undefined
}

/** The provider's API key, or the error that names the variable to set. */
export function requireApiKey(row: ProviderRow, env: NodeJS.ProcessEnv): string {
  const key = apiKeyOf(row, env)
  if (key === undefined) throw missingKey(row)
  return key
}

export function missingKey(row: ProviderRow): ProviderError {
  const others = row.keyVariables.slice(1)
  const alternatives = others.length === 0 ? '' : ` (or ${others.join(', ')})`
  return new ProviderError(`${row.name} needs an API key: set ${row.keyVariables[0]}${alternatives}.`)
}
