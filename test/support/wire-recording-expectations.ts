import type { JsonValue, TokenUsage } from '../../adapters/models/model-adapter.ts'

/** A text by its length in Unicode code points and the first 16 hex digits of its SHA-256 (no excerpt of it). */
export interface Digest {
  chars: number
  sha256: string
}

export function digest(chars: number, sha256: string): Digest {
  return { chars, sha256 }
}

/** A tool call as the provider's docs say it must come out: the id where the protocol has one, the arguments as JSON. */
export interface ExpectedCall {
  id?: string
  name: string
  arguments: JsonValue
  /** Gemini's thoughtSignature on the call's part; absent where the part had none (a later parallel call). */
  signature?: Digest
}

export interface ExpectedReply {
  text: Digest
  reasoning?: Digest
  calls?: ExpectedCall[]
  tokens: TokenUsage
  /** The finish reason in the provider's words; undefined where the stream carried none. */
  finish: string | undefined
  /** Gemini's thoughtSignature on a part that is not a call (the last one). */
  signature?: Digest
  /** Anthropic's thinking (its signature) and redacted_thinking (its data) blocks, in order. */
  thinking?: Array<['thinking' | 'redacted_thinking', Digest]>
}

/**
 * The `openai-responses` recordings, written from each body's terminal Response object (`response.completed` /
 * `.incomplete`, or the whole object of a `json-response` case), never from its deltas, by OpenAI's API reference:
 * the text is every `output_text` (or `refusal`) part of the `message` items, the reasoning every `summary_text` and
 * reasoning `content` text of the `reasoning` items (the `response.reasoning_text.done` text where a server leaves
 * the finished item's content out), parts joined with a blank line; calls are the `function_call` items by their
 * `call_id` (the field a `function_call_output` names), never the item's own `fc_…` id; tokens as billed
 * (`input_tokens` with `cached_tokens` and `cache_write_tokens` among them, `output_tokens` with `reasoning_tokens`
 * among them, OpenRouter's `cost`); the finish is the Response's `status`, or `incomplete_details.reason`.
 */
export const EXPECTED_RESPONSES_REPLIES: Record<string, ExpectedReply> = {
  'oai-resp-gpt4o-text': {
    text: digest(31, 'a1b7eb2ee7a6aded'),
    tokens: { prompt: 278, completion: 9, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt4o-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL', name: 'get_capital', arguments: { country: 'France' } }],
    tokens: { prompt: 255, completion: 16, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt5nano-enc-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'call_E9m0fralKLjUmND1MuTXjnqm',
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
      },
    ],
    tokens: { prompt: 87, completion: 339, reasoning: 256, cacheRead: 0, cacheWrite: 0 },
    finish: 'completed',
  },
  'oai-resp-codexmax-summary-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(163, 'e8c4cd892aeccd1f'),
    calls: [{ id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator', arguments: { a: 12, b: 7, op: 'add' } }],
    tokens: { prompt: 134, completion: 28, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt55-text-then-tool': {
    text: digest(52, '88a2626cee5b3679'),
    calls: [{ id: 'call_LabG58Uhrq9kZvR52BYKjToD', name: 'get_capital', arguments: { country: 'PotatoLand' } }],
    tokens: { prompt: 63, completion: 69, reasoning: 26, cacheRead: 0, cacheWrite: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt5nano-parallel-json': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'call_NeNP7bv8VH3cJTxFagvafR2L',
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
      },
      { id: 'call_oAtUHJKdNzt8gEH4M6P3Grd3', name: 'best_language_to_learn', arguments: {} },
    ],
    tokens: { prompt: 112, completion: 284, reasoning: 192, cacheRead: 0, cacheWrite: 0 },
    finish: 'completed',
  },
  'oai-resp-o3mini-summary': {
    text: digest(1251, '4242cea70d53d7d1'),
    reasoning: digest(2028, '850ada24574b27f4'),
    tokens: { prompt: 13, completion: 1680, reasoning: 1408, cacheRead: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt5nano-text': {
    text: digest(7, 'a386b3c9b4b4786d'),
    tokens: { prompt: 13, completion: 284, reasoning: 256, cacheRead: 0, cacheWrite: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt53codex-phase': {
    text: digest(1640, '5b96eff61c53618c'),
    tokens: { prompt: 7112, completion: 463, reasoning: 64, cacheRead: 3072 },
    finish: 'completed',
  },
  'oai-resp-gpt5-web-search': {
    text: digest(212, 'acf51a4fa1977f1c'),
    tokens: { prompt: 9463, completion: 582, reasoning: 512, cacheRead: 8320 },
    finish: 'completed',
  },
  'oai-resp-gpt52-compaction': {
    text: digest(3483, 'aa8ac72b5c7573ec'),
    tokens: { prompt: 51097, completion: 2505, reasoning: 0, cacheRead: 49792 },
    finish: 'completed',
  },
  'oai-resp-gpt4omini-logprobs': {
    text: digest(46, 'dad920a4c2eeea1c'),
    tokens: { prompt: 25, completion: 10, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'oai-resp-gpt5pro-json': {
    text: digest(31, '303dc9157b647162'),
    tokens: { prompt: 13, completion: 77, reasoning: 64, cacheRead: 0 },
    finish: 'completed',
  },
  'azure-resp-gpt51-text': {
    text: digest(5, '185f8db32271fe25'),
    tokens: { prompt: 11, completion: 11, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'azure-resp-gpt51-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'call_H5DxLSFnsGhiROnUiDHmgyc8', name: 'weather', arguments: { location: 'San Francisco' } }],
    tokens: { prompt: 45, completion: 24, reasoning: 0, cacheRead: 0 },
    finish: 'completed',
  },
  'xai-resp-grok43-reasoning': {
    text: digest(816, '2d051191482f668e'),
    reasoning: digest(1201, '9d9bd0421227dc11'),
    tokens: { prompt: 235, completion: 1703, reasoning: 1530, cacheRead: 128 },
    finish: 'completed',
  },
  'xai-resp-grok43-enc-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(67, 'f2e864f8f6a6adce'),
    calls: [
      {
        id: 'call-5386e269-cd64-432e-aa64-5c80dd4e0286-0',
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
      },
    ],
    tokens: { prompt: 340, completion: 105, reasoning: 83, cacheRead: 320 },
    finish: 'completed',
  },
  'deepseek-resp-reasoning-text': {
    text: digest(31, 'a1b7eb2ee7a6aded'),
    reasoning: digest(33, '25594cd4fc9e5f2f'),
    tokens: { prompt: 90, completion: 15, reasoning: 7, cacheRead: 0 },
    finish: 'completed',
  },
  'openrouter-resp-raw-cot': {
    text: digest(1, '4b227777d4dd1fc6'),
    reasoning: digest(85, '613098ac96d71523'),
    tokens: { prompt: 78, completion: 37, reasoning: 22, cacheRead: 0, cost: 1.13e-5 },
    finish: 'completed',
  },
  'lmstudio-resp-glm-tool': {
    text: digest(67, '04ed194b7d36eaca'),
    reasoning: digest(242, 'ea86985de664086d'),
    calls: [{ id: 'call_2025306790300011', name: 'weather', arguments: { location: 'San Francisco' } }],
    tokens: { prompt: 182, completion: 61, reasoning: 48, cacheRead: 2 },
    finish: 'completed',
  },
}

/**
 * What each recorded reply must read as, written from the recording by each provider's documented rules (see
 * `../shared/wire-recordings/README.md`): tokens as billed (`prompt` every input token, cached included;
 * `completion` every output token, reasoning included: Gemini's `candidatesTokenCount + thoughtsTokenCount`,
 * xAI's `completion_tokens + reasoning_tokens` where its `total_tokens` shows they were left out, Anthropic's
 * `input_tokens` plus cache reads and writes from the last `message_delta`), a kind present where the provider
 * reported it; OpenAI-compatible reasoning from `reasoning_content`, `reasoning`, `reasoning_details` or
 * Mistral's `thinking` parts; usage from the last chunk that has it. Ids of Gemini's and Ollama's calls are
 * made up, so none is expected. OpenRouter's own `usage.cost` (in credits, USD) is kept as `cost`. Texts are given
 * by digest, not quoted.
 */
export const EXPECTED_REPLIES: Record<string, ExpectedReply> = {
  'openai-text': {
    text: digest(159, 'c8fffa3408ca8cdd'),
    tokens: { prompt: 14, completion: 30, reasoning: 0 },
    finish: 'stop',
  },
  'openai-length': {
    text: digest(2, '6017dbca8e3eeb2f'),
    tokens: { prompt: 79, completion: 1, reasoning: 0 },
    finish: 'length',
  },
  'openai-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'call_c91SqDXlYFuETYv8mUHzz6pp',
        name: 'GetWeatherArgs',
        arguments: { city: 'Edinburgh', country: 'UK', units: 'c' },
      },
    ],
    tokens: { prompt: 76, completion: 24, reasoning: 0 },
    finish: 'tool_calls',
  },
  'openai-parallel-tools': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'call_JMW1whyEaYG438VE1OIflxA2',
        name: 'GetWeatherArgs',
        arguments: { city: 'Edinburgh', country: 'GB', units: 'c' },
      },
      {
        id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
        name: 'get_stock_price',
        arguments: { ticker: 'AAPL', exchange: 'NASDAQ' },
      },
    ],
    tokens: { prompt: 149, completion: 60, reasoning: 0 },
    finish: 'tool_calls',
  },
  'azure-gpt5-reasoning-usage': {
    text: digest(19, '53f836c9fbdabf17'),
    tokens: { prompt: 15, completion: 78, reasoning: 64, cacheRead: 0 },
    finish: 'stop',
  },
  'gpt4o-mini-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', arguments: { country: 'UK' } }],
    tokens: { prompt: 53, completion: 15, reasoning: 0, cacheRead: 0 },
    finish: 'tool_calls',
  },
  'deepseek-reasoner': {
    text: digest(40, 'cf0e60278f7fbdc3'),
    reasoning: digest(882, 'd29146ea4f40dfde'),
    tokens: { prompt: 6, completion: 212, reasoning: 198, cacheRead: 0 },
    finish: 'stop',
  },
  'deepseek-think-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(191, 'e9e5190a993cf891'),
    calls: [{ id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', arguments: { location: 'San Francisco' } }],
    tokens: { prompt: 339, completion: 83, reasoning: 39, cacheRead: 320 },
    finish: 'tool_calls',
  },
  'openrouter-claude-reasoning': {
    text: digest(9, 'e93dff0d1076b537'),
    reasoning: digest(51, 'b66dc085e37f7bac'),
    tokens: { prompt: 43, completion: 36, reasoning: 13, cacheRead: 0, cost: 0.000669 },
    finish: 'stop',
  },
  'openrouter-o3-reasoning': {
    text: digest(446, '863c7d8a882d2101'),
    tokens: { prompt: 9, completion: 104, reasoning: 0, cacheRead: 0, cost: 0.00085 },
    finish: 'stop',
  },
  'groq-gptoss-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(92, '30d4b14ce07615fa'),
    calls: [
      { id: 'fc_bfb39741-3748-4def-9886-a93fc9c64a90', name: 'get_something_by_name', arguments: { name: 'example' } },
    ],
    tokens: { prompt: 304, completion: 49, reasoning: 23 },
    finish: 'tool_calls',
  },
  'zai-glm-thinking': {
    text: digest(1, '4b227777d4dd1fc6'),
    reasoning: digest(2173, '960317a214d06504'),
    tokens: { prompt: 13, completion: 564, reasoning: 561, cacheRead: 0 },
    finish: 'stop',
  },
  'xai-grok-reasoning': {
    text: digest(4, 'dca61d32363b091b'),
    reasoning: digest(1455, '822137627c2158b3'),
    tokens: { prompt: 12, completion: 342, reasoning: 340, cacheRead: 11 },
    finish: 'stop',
  },
  'mistral-magistral': {
    text: digest(9, 'e93dff0d1076b537'),
    reasoning: digest(60, '3ee98375cfe6fe4e'),
    tokens: { prompt: 10, completion: 46 },
    finish: 'stop',
  },
  'mistral-tool-noindex': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'gSIMJiOkT', name: 'weather', arguments: { location: 'San Francisco' } }],
    tokens: { prompt: 124, completion: 22 },
    finish: 'tool_calls',
  },
  'glm-incremental-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      { id: 'chatcmpl-tool-9f149c74c42f265b', name: 'webSearchTool', arguments: { query: 'current Berlin weather' } },
    ],
    tokens: { prompt: 171, completion: 14, cacheRead: 128 },
    finish: 'tool_calls',
  },
  'qwen3max-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', arguments: { location: 'San Francisco' } }],
    tokens: { prompt: 295, completion: 22, cacheRead: 0 },
    finish: 'tool_calls',
  },
  'groq-llama-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ id: 'tk85n1k4m', name: 'weather', arguments: {} }],
    tokens: { prompt: 210, completion: 15 },
    finish: 'tool_calls',
  },
  'ollama-v1-qwen3-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(439, '4c8d5d94fa63af5b'),
    calls: [{ id: 'call_blqyt530', name: 'weather', arguments: { latitude: '52.5200', longitude: '13.4050' } }],
    tokens: { prompt: 195, completion: 140 },
    finish: 'tool_calls',
  },
  'gpustack-qwen3-reasoning': {
    text: digest(10, '0e3f001985e61ac6'),
    reasoning: digest(674, 'dd2423d30f36446f'),
    tokens: { prompt: 15, completion: 171, reasoning: 160, cacheRead: 0 },
    finish: 'stop',
  },
  'anthropic-text': {
    text: digest(108, '3ff17711b62557e4'),
    tokens: { prompt: 12, completion: 30, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
  },
  'anthropic-thinking': {
    text: digest(1021, '1b0c432c3a48cc28'),
    reasoning: digest(202, '18c2c6e0236da2b1'),
    tokens: { prompt: 43, completion: 282, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
    thinking: [['thinking', digest(504, 'e2385f7486c5cf36')]],
  },
  'anthropic-redacted-thinking': {
    text: digest(359, '33e0d169251b911c'),
    tokens: { prompt: 92, completion: 189, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
    thinking: [
      ['redacted_thinking', digest(744, 'a5fcad0dab0d0189')],
      ['redacted_thinking', digest(296, 'f2ba85446010cd8c')],
    ],
  },
  'anthropic-server-tools': {
    text: digest(501, 'daa935c0ed5d88c9'),
    reasoning: digest(46, '0befef5820a8a52e'),
    tokens: { prompt: 4714, completion: 304, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
    thinking: [['thinking', digest(320, '9871843e96a6baea')]],
  },
  'anthropic-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'toolu_01MKSN7NHsBVKr7Jvw5pqCQq',
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
      },
    ],
    tokens: { prompt: 633, completion: 75, cacheRead: 0, cacheWrite: 0 },
    finish: 'tool_use',
  },
  'anthropic-tool-no-args': {
    text: digest(35, '54fc8410f77caa6b'),
    calls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {} }],
    tokens: { prompt: 565, completion: 48, cacheRead: 0, cacheWrite: 0 },
    finish: 'tool_use',
  },
  'anthropic-thinking-haiku': {
    text: digest(1253, '3ae19349b2f8baa0'),
    reasoning: digest(1476, 'a65f103038f725fc'),
    tokens: { prompt: 80, completion: 638, reasoning: 353, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
    thinking: [['thinking', digest(2304, 'cbd0c6ab04397017')]],
  },
  'gemini3-text': {
    text: digest(55, '47f9afd13a797f08'),
    tokens: { prompt: 9, completion: 208, reasoning: 185 },
    finish: 'STOP',
    signature: digest(916, 'e5bb5ce61d3210ca'),
  },
  'gemini3-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ name: 'weather', arguments: { location: 'San Francisco' }, signature: digest(396, '50e65671bc814ea5') }],
    tokens: { prompt: 29, completion: 60, reasoning: 45 },
    finish: 'STOP',
  },
  'gemini3-flash-thoughts': {
    text: digest(2671, 'c6d372a924119443'),
    reasoning: digest(1464, '440575ae05335920'),
    tokens: { prompt: 44, completion: 1510, reasoning: 902 },
    finish: 'STOP',
    signature: digest(5700, 'c041cf62dbeeba79'),
  },
  'gemini25-flash-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
        signature: digest(432, '1d964f088d684429'),
      },
    ],
    tokens: { prompt: 103, completion: 73, reasoning: 43 },
    finish: 'STOP',
  },
  'gemini3-pro-tool-signature': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ name: 'get_country', arguments: {}, signature: digest(1408, '5d9ba8d754fc1f7d') }],
    tokens: { prompt: 29, completion: 212, reasoning: 202 },
    finish: 'STOP',
  },
  'gemini25-pro-thoughts': {
    text: digest(1938, '8c4308d5109d741f'),
    reasoning: digest(1575, '1bf501f690cde7d3'),
    tokens: { prompt: 34, completion: 1256, reasoning: 787 },
    finish: 'STOP',
    signature: digest(6152, 'e99c40ab9d8666d5'),
  },
  'ollama-gemma3-text': {
    text: digest(33, '8e2d2e5155b0164a'),
    tokens: { prompt: 16, completion: 22 },
    finish: 'stop',
  },
  'ollama-docs-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }],
    tokens: { prompt: 169, completion: 15 },
    finish: 'stop',
  },
  'ollama-gptoss-think-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(72, '40e1f57f33807456'),
    calls: [{ name: 'search', arguments: { query: 'ollama bash lib' } }],
    tokens: { prompt: 129, completion: 47 },
    finish: undefined,
  },
  'anthropic-think-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(180, '7a4548123a7bd849'),
    calls: [{ id: 'toolu_01825dXWLSoJwCst1qTsiWdb', name: 'fixed_version', arguments: {} }],
    tokens: { prompt: 598, completion: 92, reasoning: 53, cacheRead: 0, cacheWrite: 0 },
    finish: 'tool_use',
    thinking: [['thinking', digest(524, '1ca0c5e976b11f45')]],
  },
  'anthropic-opus46-adaptive': {
    text: digest(36, '9d1594299ae62977'),
    reasoning: digest(40, 'da8bbaa56245332e'),
    tokens: { prompt: 34, completion: 44, cacheRead: 0, cacheWrite: 0 },
    finish: 'end_turn',
    thinking: [['thinking', digest(284, 'a7760717572fee1c')]],
  },
  'openrouter-haiku-reasoning-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(211, '970213029047eed8'),
    calls: [{ id: 'toolu_bdrk_01L9pX1Wp4FAEq9TT2Z6UAe7', name: 'reasoning_weather', arguments: { city: 'Berlin' } }],
    tokens: { prompt: 626, completion: 106, reasoning: 54, cacheRead: 0, cacheWrite: 0, cost: 0.001156 },
    finish: 'tool_calls',
  },
  'ollama-cloud-gptoss-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(81, 'c8f89a9ca1fbc455'),
    calls: [{ id: 'call_x7rn5sl5', name: 'weather', arguments: { latitude: '52.5200', longitude: '13.4050' } }],
    tokens: { prompt: 169, completion: 55 },
    finish: 'tool_calls',
  },
  'deepseek-v4-flash-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        id: 'call_00_MRi7F2sfOet5LgvlZL3W5236',
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
      },
    ],
    tokens: { prompt: 348, completion: 65, cacheRead: 0 },
    finish: 'tool_calls',
  },
  'azure-gpt5nano-reasoning': {
    text: digest(838, '7e7fe02da036d098'),
    tokens: { prompt: 50, completion: 4350, reasoning: 4160, cacheRead: 0 },
    finish: 'stop',
  },
  'vllm-crusoe-text': {
    text: digest(13, '43f0c4c6d14f478a'),
    tokens: { prompt: 46, completion: 14, cacheRead: 0 },
    finish: 'stop',
  },
  'snowflake-reasoning-details': {
    text: digest(93, 'a1b5313205c6838c'),
    reasoning: digest(13, '5c09ab60563e9932'),
    tokens: { prompt: 45, completion: 73, reasoning: 0, cacheRead: 0 },
    finish: undefined,
  },
  'gemini25-flash-thought-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(236, '86e6cada5ed4161c'),
    calls: [{ name: 'pelican_name_generator', arguments: {}, signature: digest(336, 'd0df456a35eb99c1') }],
    tokens: { prompt: 32, completion: 54, reasoning: 42 },
    finish: 'STOP',
  },
  'gemini25-flash-parallel-tools': {
    text: digest(0, 'e3b0c44298fc1c14'),
    calls: [
      {
        name: 'weather',
        arguments: { latitude: '52.5200', longitude: '13.4050' },
        signature: digest(540, '929ab012654940d8'),
      },
      { name: 'best_language_to_learn', arguments: {} },
    ],
    tokens: { prompt: 143, completion: 153, reasoning: 109 },
    finish: 'STOP',
  },
  'gemini25-pro-max-tokens-empty': {
    text: digest(0, 'e3b0c44298fc1c14'),
    tokens: { prompt: 15, completion: 2, reasoning: 2 },
    finish: 'MAX_TOKENS',
  },
  'gemini15-flash-safety': {
    text: digest(0, 'e3b0c44298fc1c14'),
    tokens: { prompt: 14, completion: 0 },
    finish: 'SAFETY',
  },
  // The made-up replies of fixtures/wire-shapes, by the same rules.
  // OpenAI's refusal is what the model said in place of `content`: the reply's text.
  'made-up-openai-refusal': {
    text: digest(34, 'a975487ca834476e'),
    tokens: { prompt: 31, completion: 9, reasoning: 0, cacheRead: 0 },
    finish: 'stop',
  },
  'made-up-anthropic-thinking-blocks-tool': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(57, '7f730fe684a0ab15'),
    calls: [{ id: 'toolu_made_up_1', name: 'add', arguments: { a: 2, b: 3 } }],
    tokens: { prompt: 2578, completion: 87, cacheRead: 2048, cacheWrite: 120 },
    finish: 'tool_use',
    thinking: [
      ['thinking', digest(20, 'ec817b152e054010')],
      ['redacted_thinking', digest(20, '1e8d8a23a9562c59')],
      ['thinking', digest(20, '4012b6e200b4c5f6')],
    ],
  },
  'made-up-ollama-think-tools-lines': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(23, '2d8a0ae31410e396'),
    calls: [
      { name: 'lookup', arguments: { query: 'alpha' } },
      { name: 'lookup', arguments: { query: 'beta' } },
    ],
    tokens: { prompt: 201, completion: 33 },
    finish: 'stop',
  },
  'made-up-gemini-thoughts-parallel-calls': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(23, '0c1fb25e1a2ee515'),
    calls: [
      { name: 'weather', arguments: { city: 'Oslo' }, signature: digest(24, '7389580b79430f83') },
      { name: 'weather', arguments: { city: 'Lima' } },
    ],
    tokens: { prompt: 80, completion: 85, reasoning: 61, cacheRead: 64 },
    finish: 'STOP',
  },
  'made-up-gemini-thoughts-max-tokens': {
    text: digest(0, 'e3b0c44298fc1c14'),
    reasoning: digest(17, '22cc842366119624'),
    tokens: { prompt: 12, completion: 30, reasoning: 30 },
    finish: 'MAX_TOKENS',
  },
  ...EXPECTED_RESPONSES_REPLIES,
}
