import { describe, expect, test } from 'vitest'
import { parseModelList } from '../../../adapters/models/model-spec.ts'

describe('MODEL', () => {
  test.for([
    ['qwen2.5', [{ provider: 'ollama', model: 'qwen2.5', label: 'ollama:qwen2.5' }]],
    ['qwen2.5:7b', [{ provider: 'ollama', model: 'qwen2.5:7b', label: 'ollama:qwen2.5:7b' }]],
    ['llama3:8b', [{ provider: 'ollama', model: 'llama3:8b', label: 'ollama:llama3:8b' }]],
    ['ollama:qwen2.5:7b', [{ provider: 'ollama', model: 'qwen2.5:7b', label: 'ollama:qwen2.5:7b' }]],
    ['ollama:*', [{ provider: 'ollama', model: '*', label: 'ollama:*' }]],
    ['openai:gpt-4o', [{ provider: 'openai', model: 'gpt-4o', label: 'openai:gpt-4o' }]],
    [
      'anthropic:claude-sonnet-4-5',
      [{ provider: 'anthropic', model: 'claude-sonnet-4-5', label: 'anthropic:claude-sonnet-4-5' }],
    ],
    ['google:gemini-2.5-flash', [{ provider: 'google', model: 'gemini-2.5-flash', label: 'google:gemini-2.5-flash' }]],
    [
      'openrouter:meta-llama/llama-3.3-70b-instruct',
      [
        {
          provider: 'openrouter',
          model: 'meta-llama/llama-3.3-70b-instruct',
          label: 'openrouter:meta-llama/llama-3.3-70b-instruct',
        },
      ],
    ],
    ['reference', [{ provider: 'reference', model: 'reference', label: 'reference' }]],
    ['replay:runs/a.jsonl', [{ provider: 'replay', model: 'runs/a.jsonl', label: 'replay:runs/a.jsonl' }]],
    [
      'qwen2.5, openai:gpt-4o',
      [
        { provider: 'ollama', model: 'qwen2.5', label: 'ollama:qwen2.5' },
        { provider: 'openai', model: 'gpt-4o', label: 'openai:gpt-4o' },
      ],
    ],
  ] as const)('%s', ([value, expected]) => {
    expect(parseModelList(value)).toEqual(expected)
  })

  test.for([
    [undefined, /MODEL is not set.*\n.*Accepted forms/s],
    ['', /MODEL is not set/],
    ['opnai:gpt-4o', /unknown provider "opnai"; did you mean openai:gpt-4o\?.*Accepted forms/s],
    ['antropic:claude', /did you mean anthropic:claude/],
    ['openai:', /model name after "openai:" is missing/],
    ['openai:*', /"\*" \(every model\) works only for ollama:\*/],
    ['replay:', /replay needs a file/],
    ['qwen2.5,,llama3', /empty entry/],
    ['qwen2.5,ollama:qwen2.5', /names ollama:qwen2\.5 twice/],
    ['qwen 2.5', /contains white space/],
  ] as const)('rejects %s', ([value, message]) => {
    expect(() => parseModelList(value)).toThrow(message)
  })
})
