/** The grammar of MODEL: a comma list of `provider:model`, a bare Ollama model, `ollama:*`, `reference`, `replay:<file>`. */
import { editDistance } from '../knob.ts'
import { HOSTED_PROVIDERS, PROVIDERS, type HostedProvider, type ProviderRow } from './providers.ts'

export { HOSTED_PROVIDERS, type HostedProvider } from './providers.ts'
export type Provider = HostedProvider | 'reference' | 'replay'

export interface ModelSpec {
  provider: Provider
  /** The provider's model name; the file for `replay`; `*` for every local Ollama model. */
  model: string
  /** How the model is named in test names and reports. */
  label: string
}

const ACCEPTED = [
  'qwen2.5 or mistral:7b (an Ollama model, with or without its tag)',
  'ollama:* (every local Ollama model)',
  ...PROVIDERS.map((row) => row.example),
  "reference (the dataset's known-correct answers)",
  'replay:answers.jsonl (answers produced elsewhere)',
]

export class ModelSpecError extends Error {
  override readonly name = 'ModelSpecError'
}

export function parseModelList(value: string | undefined): ModelSpec[] {
  if (value === undefined || value.trim() === '') {
    throw new ModelSpecError(
      `MODEL is not set. Say which model to benchmark, for example MODEL=qwen2.5 npx vitest run suites/euler.\n${acceptedList()}`,
    )
  }
  const specs = value.split(',').map((entry) => parseModel(entry.trim(), value))
  const labels = new Set<string>()
  for (const spec of specs) {
    if (labels.has(spec.label)) throw new ModelSpecError(`MODEL=${value} names ${spec.label} twice.`)
    labels.add(spec.label)
  }
  return specs
}

/**
 * An Ollama tag: a size (`7b`, `1.5b`, `8x7b`, `e2b`), `latest`, a quantization (`q4_K_M`, `fp16`) or a
 * version (`v0.3`), each optionally followed by more (`7b-instruct-q4_K_M`). It keeps `mistral:7b` Ollama's
 * where a provider is named like the model family; after any other provider's prefix it means nothing,
 * since OpenAI-compatible servers name their models freely (`openai:7b-chat`, `openai:latest`).
 */
const OLLAMA_TAG = /^(latest|e?\d+(\.\d+)?[bmk]|\d+x\d+(\.\d+)?b|i?q\d\w*|fp16|f16|bf16|v\d[\w.]*)([-_.].*)?$/i

export function looksLikeOllamaTag(name: string): boolean {
  return OLLAMA_TAG.test(name)
}

type PrefixRow = Pick<ProviderRow, 'prefix' | 'sharesNameWithOllamaModels'>

export function parseModel(entry: string, whole = entry, providers: readonly PrefixRow[] = PROVIDERS): ModelSpec {
  if (entry === '')
    throw new ModelSpecError(`MODEL=${whole} has an empty entry (two commas, or a comma at an end).\n${acceptedList()}`)
  if (/\s/.test(entry)) throw new ModelSpecError(`MODEL entry "${entry}" contains white space.\n${acceptedList()}`)
  if (entry === 'reference') return { provider: 'reference', model: 'reference', label: 'reference' }

  const colon = entry.indexOf(':')
  if (colon === -1) return { provider: 'ollama', model: entry, label: `ollama:${entry}` }
  const prefix = entry.slice(0, colon)
  const name = entry.slice(colon + 1)

  if (prefix === 'replay') {
    if (name === '') throw new ModelSpecError(`MODEL=${entry}: replay needs a file, for example replay:answers.jsonl.`)
    return { provider: 'replay', model: name, label: entry }
  }
  const row = providers.find((each) => each.prefix === prefix)
  if (isProviderRow(row) && !(row.sharesNameWithOllamaModels === true && looksLikeOllamaTag(name))) {
    if (name === '')
      throw new ModelSpecError(`MODEL=${entry}: the model name after "${prefix}:" is missing.\n${acceptedList()}`)
    if (name === '*' && prefix !== 'ollama') {
      throw new ModelSpecError(`MODEL=${entry}: "*" (every model) works only for ollama:*.`)
    }
    return { provider: row.prefix, model: name, label: entry }
  }
  const suggestion = looksLikeOllamaTag(name) ? undefined : closestProvider(prefix)
  if (suggestion !== undefined) {
    throw new ModelSpecError(
      `MODEL=${entry}: unknown provider "${prefix}"; did you mean ${suggestion}:${name}? ` +
        `(For an Ollama model whose name looks like this, write ollama:${entry}.)\n${acceptedList()}`,
    )
  }
  // `qwen2.5:7b` is an Ollama model with a tag.
  return { provider: 'ollama', model: entry, label: `ollama:${entry}` }
}

/** Rows other than PROVIDERS' come from tests that try a provider the table may one day hold. */
function isProviderRow(row: PrefixRow | undefined): row is PrefixRow & { readonly prefix: HostedProvider } {
  return row !== undefined
}

function acceptedList(): string {
  return `Accepted forms (comma-separate several):\n${ACCEPTED.map((form) => `  - ${form}`).join('\n')}`
}

/** A provider (or `replay`/`reference`) one edit away from a typo, so `opnai:gpt-4o` is an error, not an Ollama model. */
function closestProvider(prefix: string): string | undefined {
  const candidates = [...HOSTED_PROVIDERS, 'replay', 'reference']
  return candidates.find((candidate) => editDistance(prefix.toLowerCase(), candidate) <= 1)
}
