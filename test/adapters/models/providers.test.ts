import { describe, expect, test } from 'vitest'
import { createAdapter } from '../../../adapters/models/create-adapter.ts'
import { HOSTED_PROVIDERS, parseModel } from '../../../adapters/models/model-spec.ts'
import { OpenAIAdapter } from '../../../adapters/models/openai/openai.ts'
import { apiKeyOf, baseUrlOf, PROVIDERS, type ProviderRow } from '../../../adapters/models/providers.ts'

/** Providers that could one day be added, named like the model families Ollama serves. */
const FAMILY_NAMED = ['mistral', 'qwen2.5', 'llama3.2', 'mixtral', 'gemma3n', 'deepseek-r1'].map((prefix) => ({
  prefix,
  sharesNameWithOllamaModels: true,
}))

describe('Ollama model names with tags stay Ollama models', () => {
  test.for([
    'mistral:7b',
    'mistral:latest',
    'mistral:v0.3',
    'qwen2.5:7b',
    'qwen2.5:7b-instruct-q4_K_M',
    'llama3.2:3b',
    'mixtral:8x7b',
    'gemma3n:e2b',
    'deepseek-r1:1.5b',
    'llama3.2:3b-instruct-fp16',
    'hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M',
    'hf.co/unsloth/Qwen3-8B-GGUF:IQ4_XS',
  ])('%s, even with a provider named like its family', (name) => {
    const spec = parseModel(name, name, [...PROVIDERS, ...FAMILY_NAMED])
    expect(spec).toEqual({ provider: 'ollama', model: name, label: `ollama:${name}` })
  })

  test('a provider named like a family still gets its own models, and the real providers theirs', () => {
    expect(parseModel('mistral:mistral-large-latest', 'x', [...PROVIDERS, ...FAMILY_NAMED])).toMatchObject({
      provider: 'mistral',
      model: 'mistral-large-latest',
    })
    for (const entry of [
      'openai:gpt-4o',
      'openai:o3-mini',
      'anthropic:claude-sonnet-4-5',
      'google:gemini-2.5-flash',
      'openrouter:qwen/qwen-2.5-72b-instruct',
    ]) {
      expect(parseModel(entry).provider).toBe(entry.split(':')[0])
    }
    expect(parseModel('ollama:mistral:7b')).toEqual({
      provider: 'ollama',
      model: 'mistral:7b',
      label: 'ollama:mistral:7b',
    })
  })
})

describe('a provider written out in front is the provider, whatever the model is called', () => {
  // OpenAI-compatible servers (vLLM, llama.cpp's server, LM Studio) name their models freely, often like Ollama tags.
  test.for(
    HOSTED_PROVIDERS.filter((prefix) => prefix !== 'ollama').flatMap((prefix) =>
      ['v0.16.0-alpha__deepseek-r1', '7b-chat', 'latest', 'q4-k-m', 'v2', '8x7b', 'fp16'].map(
        (model) => [prefix, model] as const,
      ),
    ),
  )('%s:%s', ([prefix, model]) => {
    expect(parseModel(`${prefix}:${model}`)).toEqual({ provider: prefix, model, label: `${prefix}:${model}` })
  })
})

describe('providers as one table', () => {
  const keyed = PROVIDERS.filter((row) => row.keyVariables.length > 0)

  test.for(keyed.map((row) => [row.prefix, row.keyVariables[0]!] as const))(
    'a missing %s key names %s',
    async ([prefix, variable]) => {
      await expect(
        createAdapter({ provider: prefix, model: 'some-model', label: `${prefix}:some-model` }, {}),
      ).rejects.toThrow(`set ${variable}`)
    },
  )

  test('a provider added as a row over the OpenAI protocol names its own key variable, not one copied from another', () => {
    const row: ProviderRow = {
      prefix: 'mistral',
      name: 'Mistral',
      protocol: 'openai',
      baseUrlVariable: 'MISTRAL_BASE_URL',
      defaultBaseUrl: 'https://api.mistral.ai/v1',
      keyVariables: ['MISTRAL_API_KEY'],
      howToFix: 'Check MISTRAL_API_KEY.',
      example: 'mistral:mistral-large-latest',
    }
    const endpoint = {
      provider: row.prefix,
      name: row.name,
      baseURL: baseUrlOf(row, {}),
      apiKey: apiKeyOf(row, {}),
      howToFix: row.howToFix,
      officialApi: false,
      row,
    }
    expect(() => new OpenAIAdapter('mistral-large-latest', endpoint, {})).toThrow(
      'Mistral needs an API key: set MISTRAL_API_KEY.',
    )
  })

  test('every row reads its own address and key variables', () => {
    for (const row of PROVIDERS) {
      expect(baseUrlOf(row, {})).toBe(row.defaultBaseUrl)
      expect(baseUrlOf(row, { [row.baseUrlVariable]: 'http://127.0.0.1:9' })).toBe('http://127.0.0.1:9')
      for (const variable of row.keyVariables) expect(apiKeyOf(row, { [variable]: ' k ' })).toBe('k')
    }
    expect(new Set(PROVIDERS.map((row) => row.baseUrlVariable)).size).toBe(PROVIDERS.length)
  })
})
