import { OPENAI_API } from '../knobs.ts'

/** The two APIs an `openai:` model can be asked through: `POST /v1/responses` or `POST /v1/chat/completions`. */
export type OpenAIApi = 'responses' | 'chat'

/**
 * TESTBENCH_OPENAI_API for one model: `responses` or `chat` as forced, and under `auto` (the default) the Responses
 * API by the model's name alone, whatever the base URL (see `responsesByName`).
 */
export function openaiApiFor(model: string, env: NodeJS.ProcessEnv = process.env): OpenAIApi {
  const chosen = OPENAI_API.read(env)
  if (chosen !== 'auto') return chosen
  return responsesByName(model) ? 'responses' : 'chat'
}

/**
 * The names `auto` asks through the Responses API. OpenAI serves its codex models (gpt-5-codex, gpt-5.1-codex,
 * gpt-5.1-codex-max, gpt-5.3-codex…) and the `-pro` tier (o1-pro, o3-pro, gpt-5-pro, gpt-5.4-pro and their dated
 * snapshots, `gpt-5.4-pro-2026-03-05`) only there, and Chat Completions answers them `unsupported_api_for_model`;
 * its reasoning models (the o-series, the gpt-5 family) carry their reasoning from one turn to the next only there
 * (`reasoning` items with `encrypted_content`, OpenAI's guide "Reasoning models" and its cookbook "Better
 * performance from reasoning models using the Responses API"). Every other name (gpt-4o, gpt-4.1, a local server's
 * qwen2.5 or gpt-oss) stays on Chat Completions. A `vendor/` prefix (OpenRouter's, a proxy's) is looked through.
 */
export function responsesByName(model: string): boolean {
  const name = model.replace(/^.*\//, '').toLowerCase()
  if (/(^|-)codex(-|$)/.test(name)) return true
  if (/-pro(-\d{4}-\d{2}-\d{2})?$/.test(name) && /^(o\d|gpt-)/.test(name)) return true
  if (/^o\d+(-|$)/.test(name)) return true
  return /^gpt-([5-9]|\d{2,})(\.\d+)?(-|$)/.test(name)
}

/**
 * OpenAI's reasoning models by name (the o-series, the gpt-5 family with its codex and -pro models, not
 * `gpt-5-chat`): they return `reasoning` items, refuse `temperature` and `top_p` (OpenAI's guide "Reasoning
 * models"), and their reasoning goes back encrypted (`include: ["reasoning.encrypted_content"]`), which other models
 * refuse ("Encrypted content is not supported with this model").
 */
export function reasoningModelName(model: string): boolean {
  const name = model.replace(/^.*\//, '').toLowerCase()
  if (/-chat(-|$)/.test(name)) return false
  return /^o\d+(-|$)/.test(name) || /^gpt-([5-9]|\d{2,})(\.\d+)?(-|$)/.test(name)
}

/**
 * OpenAI's models that do not reason (gpt-4o, gpt-4.1, gpt-3.5, chatgpt-4o, gpt-5-chat): they refuse
 * `include: ["reasoning.encrypted_content"]`, which every other name is asked for (an Azure deployment, xAI's grok,
 * a local server's model may reason under any name).
 */
export function reasonlessModelName(model: string): boolean {
  const name = model.replace(/^.*\//, '').toLowerCase()
  return /^(gpt-4|gpt-3\.5|chatgpt-)/.test(name) || (/^gpt-/.test(name) && /-chat(-|$)/.test(name))
}
