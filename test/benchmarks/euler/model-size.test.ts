import { expect, test } from 'vitest'
import {
  bitsInName,
  billionsInName,
  memoryGB,
  modelSize,
  parseBillions,
  parseBits,
} from '../../../suites/euler/model-size.ts'

test.for([
  [{ parameters: 30.7, bits: 4 }, 30.7 * 0.75],
  [{ parameters: 30.7, bits: 8 }, 30.7 * 1.1],
  [{ parameters: 30.7, bits: 16 }, 61.4],
  [{ parameters: 30.7, bits: 6 }, 61.4],
  [{ bits: 16 }, undefined],
  [{ parameters: 7 }, undefined],
] as const)("memoryGB(%o) is the original's estimate, %s", ([size, expected]) => {
  expect(memoryGB(size)).toBe(expected)
})

test.for([
  ['7.6B', 7.6],
  ['494.03M', 0.49403],
  ['1.5T', 1500],
  ['unknown', undefined],
  [undefined, undefined],
] as const)('parseBillions(%s) is %s', ([size, expected]) => {
  if (expected === undefined) expect(parseBillions(size)).toBeUndefined()
  else expect(parseBillions(size)).toBeCloseTo(expected, 9)
})

test.for([
  ['Q4_K_M', 4],
  ['Q8_0', 8],
  ['F16', 16],
  ['BF16', 16],
  ['IQ3_XXS', 3],
  ['MXFP4', 4],
  [undefined, undefined],
] as const)('parseBits(%s) is %s', ([level, expected]) => {
  expect(parseBits(level)).toBe(expected)
})

test.for([
  ['ollama:qwen2.5:7b', 7, undefined],
  ['gemma4:31b-it-q8_0-no_think', 31, 8],
  ['qwen3-coder:480b-a35b-q4_K_M', 480, 4],
  ['mlx-community/Qwen3-Next-80B-A3B-Instruct-8bit', 80, 8],
  ['hf.co/bartowski/Sky-T1-32B-Preview-GGUF:Q4_K_M', 32, 4],
  ['llama3.1:8b-instruct-fp16', 8, 16],
  ['openai:gpt-4o', undefined, undefined],
] as const)('from the name %s: %s B, %s bits', ([name, parameters, bits]) => {
  expect(billionsInName(name)).toBe(parameters)
  expect(bitsInName(name)).toBe(bits)
})

test('stated sizes win over Ollama, Ollama over the name', () => {
  expect(modelSize('x:7b-q8_0', { parameterSize: '7.6B', quantization: 'Q4_K_M' }, { bits: 16 })).toEqual({
    parameters: 7.6,
    bits: 16,
  })
  expect(modelSize('x:7b-q8_0', {}, {})).toEqual({ parameters: 7, bits: 8 })
  expect(modelSize('openai:gpt-4o', {}, {})).toEqual({})
})
