import type { ModelSpec } from './model-spec.ts'
import { visionEnabled } from './knobs.ts'
import { baseUrlOf, providerRow, requireApiKey } from './providers.ts'
import type { BatchWire } from './batch-wire.ts'

/**
 * The batch API of a model's provider, or why its items are asked one by one. Each provider's module and SDK
 * is imported only when a run asks that provider, as for the adapters.
 */
export async function batchWireFor(
  spec: ModelSpec,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BatchWire | { unsupported: string }> {
  switch (spec.provider) {
    case 'openai': {
      const [{ OpenAIBatchWire }, { openaiEndpoint }, { openaiApiFor }] = await Promise.all([
        import('./openai/openai-batch.ts'),
        import('./openai/openai.ts'),
        import('./openai/openai-api-choice.ts'),
      ])
      return new OpenAIBatchWire(spec.model, openaiEndpoint(env), visionEnabled(env), openaiApiFor(spec.model, env))
    }
    case 'anthropic': {
      const { AnthropicBatchWire } = await import('./anthropic/anthropic-batch.ts')
      const row = providerRow('anthropic')
      return new AnthropicBatchWire(spec.model, requireApiKey(row, env), baseUrlOf(row, env), visionEnabled(env))
    }
    case 'google': {
      const { GoogleBatchWire } = await import('./google/google-batch.ts')
      const row = providerRow('google')
      return new GoogleBatchWire(spec.model, requireApiKey(row, env), baseUrlOf(row, env), visionEnabled(env))
    }
    case 'ollama':
      return { unsupported: 'Ollama has no batch API' }
    case 'openrouter':
      return { unsupported: 'OpenRouter has no batch API' }
    case 'reference':
    case 'replay':
      return { unsupported: 'its answers are read from data, not asked' }
  }
}
