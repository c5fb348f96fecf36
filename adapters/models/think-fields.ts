import type { ThinkSetting } from './model-adapter.ts'

/**
 * TESTBENCH_THINK in each wire protocol's own fields. Each mapping also says, in `caveat`, what the model
 * cannot honour, for the up-front check to say once; the request then asks for the nearest thing it can.
 */
export interface ThinkFields<Fields> {
  fields: Fields
  caveat?: string
}

type Effort = 'low' | 'medium' | 'high'
const effortOf = (think: Exclude<ThinkSetting, 'off'>): Effort => (think === 'on' ? 'medium' : think)

/** How an OpenAI-compatible endpoint takes the switch: the official API, OpenRouter, or a local server's chat template. */
export type OpenAIThinkStyle = 'reasoning_effort' | 'openrouter' | 'chat_template_kwargs'

export function openaiThinkFields(
  think: ThinkSetting,
  style: OpenAIThinkStyle,
  model = '',
): ThinkFields<Record<string, unknown>> {
  switch (style) {
    case 'reasoning_effort':
      return think === 'off' ? officialOff(model) : { fields: { reasoning_effort: effortOf(think) } }
    case 'openrouter':
      return {
        fields: {
          reasoning: think === 'off' ? { enabled: false } : think === 'on' ? { enabled: true } : { effort: think },
        },
      }
    case 'chat_template_kwargs':
      // llama.cpp's and vLLM's switch for Qwen3-style templates; an effort also goes as `reasoning_effort` (gpt-oss on vLLM).
      return {
        fields: {
          chat_template_kwargs: { enable_thinking: think !== 'off' },
          ...(think === 'off' || think === 'on' ? {} : { reasoning_effort: think }),
        },
      }
  }
}

/**
 * TESTBENCH_THINK in the Responses API's `reasoning`: the effort, and a summary asked for (`auto`: the most detailed
 * the model gives) so that the reasoning is recorded; `off` as the least each model family takes, as for chat.
 */
export function responsesThinkFields(
  think: ThinkSetting,
  model: string,
): ThinkFields<{ reasoning?: { effort: string; summary?: 'auto' } }> {
  if (think !== 'off') return { fields: { reasoning: { effort: effortOf(think), summary: 'auto' } } }
  const { fields, caveat } = officialOff(model)
  const effort = fields.reasoning_effort
  if (typeof effort !== 'string') return { fields: {} }
  return {
    fields: { reasoning: effort === 'none' ? { effort } : { effort, summary: 'auto' } },
    ...(caveat === undefined ? {} : { caveat }),
  }
}

/**
 * The official API's "no reasoning", by the documented model families: `none` from gpt-5.1 on; gpt-5 goes no
 * lower than `minimal` and the o-series than `low` (each refuses `none` with a 400); a model that does not
 * reason (gpt-4o, gpt-4.1) refuses `reasoning_effort` altogether, so it is sent nothing.
 */
function officialOff(model: string): ThinkFields<Record<string, unknown>> {
  const name = model.replace(/^.*\//, '')
  if (/^gpt-5(-|$)/.test(name))
    return {
      fields: { reasoning_effort: 'minimal' },
      caveat: `${model} cannot switch reasoning off: it is asked for its least (minimal).`,
    }
  if (/^o\d/.test(name))
    return {
      fields: { reasoning_effort: 'low' },
      caveat: `${model} cannot switch reasoning off: it is asked for its least (low).`,
    }
  if (/^gpt-(\d+)\.(\d+)/.test(name) || /^gpt-([6-9]|\d{2,})/.test(name)) {
    const [major = 0, minor = 0] = (/^gpt-(\d+)(?:\.(\d+))?/.exec(name) ?? []).slice(1).map(Number)
    if (major > 5 || (major === 5 && minor >= 1)) return { fields: { reasoning_effort: 'none' } }
  }
  return { fields: {} }
}

/** Token budgets for Anthropic's extended thinking (at least 1024) and Gemini 2.5's thinkingBudget. */
export const THINKING_BUDGETS: Record<Effort, number> = { low: 2048, medium: 8192, high: 24576 }

export interface AnthropicThinking {
  thinking: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' }
  /** max_tokens counts the thinking too: the answer keeps its own allowance on top of the budget. */
  max_tokens: number
}

export function anthropicThinkFields(think: ThinkSetting, answerTokens: number): ThinkFields<AnthropicThinking> {
  if (think === 'off') return { fields: { thinking: { type: 'disabled' }, max_tokens: answerTokens } }
  const budget = THINKING_BUDGETS[effortOf(think)]
  return { fields: { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: answerTokens + budget } }
}

export interface GeminiThinkingConfig {
  includeThoughts?: boolean
  thinkingBudget?: number
  thinkingLevel?: 'LOW' | 'MEDIUM' | 'HIGH'
}

/** Gemini 3 takes a level and cannot stop thinking; Gemini 2.5 takes a budget (0 stops it, except on Pro; -1 lets it choose). */
export function geminiThinkFields(
  think: ThinkSetting,
  model: string,
): ThinkFields<{ thinkingConfig: GeminiThinkingConfig }> {
  if (/gemini-[3-9]/.test(model)) {
    if (think === 'off')
      return {
        fields: { thinkingConfig: { thinkingLevel: 'LOW' } },
        caveat: `${model} cannot switch thinking off: it is asked to think at its lowest level (LOW).`,
      }
    if (think === 'on') return { fields: { thinkingConfig: { includeThoughts: true } } }
    return {
      fields: {
        thinkingConfig: {
          includeThoughts: true,
          thinkingLevel: think === 'low' ? 'LOW' : think === 'medium' ? 'MEDIUM' : 'HIGH',
        },
      },
    }
  }
  if (think === 'off') {
    if (/pro/.test(model))
      return {
        fields: { thinkingConfig: { thinkingBudget: 128 } },
        caveat: `${model} cannot switch thinking off: it is given its smallest budget (128 tokens).`,
      }
    return { fields: { thinkingConfig: { thinkingBudget: 0 } } }
  }
  return {
    fields: {
      thinkingConfig: { includeThoughts: true, thinkingBudget: think === 'on' ? -1 : THINKING_BUDGETS[think] },
    },
  }
}

/**
 * Ollama's `think`: a boolean, or an effort for gpt-oss (which cannot stop thinking). A model without the
 * `thinking` capability is sent nothing (Ollama refuses `think` for it); asking it to think is the caveat.
 */
export function ollamaThinkFields(
  think: ThinkSetting,
  model: string,
  capabilities: readonly string[] | undefined,
): ThinkFields<{ think?: boolean | Effort }> {
  if (capabilities !== undefined && !capabilities.includes('thinking')) {
    return think === 'off'
      ? { fields: {} }
      : {
          fields: {},
          caveat: `Ollama's ${model} cannot think (its capabilities have no "thinking"): TESTBENCH_THINK=${think} is not sent.`,
        }
  }
  if (/gpt-oss/.test(model)) {
    if (think === 'off')
      return {
        fields: { think: 'low' },
        caveat: `${model} cannot switch thinking off: it is asked to think at its lowest effort (low).`,
      }
    return { fields: { think: effortOf(think) } }
  }
  if (think === 'off' || think === 'on') return { fields: { think: think === 'on' } }
  return {
    fields: { think: true },
    caveat: `Ollama's ${model} takes no effort level, only thinking on or off: TESTBENCH_THINK=${think} switches it on.`,
  }
}
