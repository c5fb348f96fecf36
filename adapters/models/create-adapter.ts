import type { ModelAdapter } from './model-adapter.ts'
import type { ModelSpec } from './model-spec.ts'

/**
 * The adapter of a model's provider. Each provider's module, and the SDK it wraps, is imported
 * only when a run asks that provider: the four SDKs together cost every process that loads them
 * about 0.7 s of CPU, and a run uses one of them, or none (`reference`, `replay:`).
 */
export async function createAdapter(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): Promise<ModelAdapter> {
  switch (spec.provider) {
    case 'ollama': {
      const { OllamaAdapter } = await import('./ollama/ollama.ts')
      return new OllamaAdapter(spec.model, env)
    }
    case 'openai': {
      const { OpenAIAdapter, openaiEndpoint } = await import('./openai/openai.ts')
      return new OpenAIAdapter(spec.model, openaiEndpoint(env), env)
    }
    case 'openrouter': {
      const { openrouterAdapter } = await import('./openrouter/openrouter.ts')
      return openrouterAdapter(spec.model, env)
    }
    case 'anthropic': {
      const { AnthropicAdapter } = await import('./anthropic/anthropic.ts')
      return new AnthropicAdapter(spec.model, env)
    }
    case 'google': {
      const { GoogleAdapter } = await import('./google/google.ts')
      return new GoogleAdapter(spec.model, env)
    }
    case 'reference': {
      const { ReferenceAdapter } = await import('./answer-sources/reference.ts')
      return new ReferenceAdapter()
    }
    case 'replay': {
      const { ReplayAdapter } = await import('./answer-sources/replay.ts')
      return new ReplayAdapter(spec.model)
    }
  }
}
