import { createAdapter } from '../adapters/models/create-adapter.ts'
import { parseModelList, type ModelSpec } from '../adapters/models/model-spec.ts'
import { ProviderError } from '../adapters/models/model-adapter.ts'
import { thinkSetting } from '../adapters/models/knobs.ts'
import type { ResolvedModel } from './model-session.ts'

/**
 * MODEL → the models of this run, each checked once, up front: an unreachable
 * provider or an unknown model stops the run with one message instead of a
 * page of failed items. `ollama:*` becomes every local Ollama model.
 */
export async function resolveModels(
  value: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedModel[]> {
  const specs: ModelSpec[] = []
  for (const spec of parseModelList(value)) {
    if (spec.provider === 'ollama' && spec.model === '*') specs.push(...(await everyOllamaModel(env)))
    else specs.push(spec)
  }
  const resolved: ResolvedModel[] = []
  for (const spec of specs) {
    const details = await (await createAdapter(spec, env)).preflight()
    // The thinking switch the run asked for goes with the model into every report (`default`: the model's own).
    resolved.push({ ...spec, details: { ...details, think: thinkSetting(env) ?? 'default' } })
  }
  return resolved
}

async function everyOllamaModel(env: NodeJS.ProcessEnv): Promise<ModelSpec[]> {
  const { listOllamaModels } = await import('../adapters/models/ollama/ollama.ts')
  const names = await listOllamaModels(env)
  if (names.length === 0)
    throw new ProviderError('MODEL=ollama:* but Ollama has no local models: pull one with `ollama pull qwen2.5`.')
  return names.map((name) => ({ provider: 'ollama', model: name, label: `ollama:${name}` }))
}
