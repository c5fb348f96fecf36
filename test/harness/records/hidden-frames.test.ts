import { expect, test } from 'vitest'
import { withoutHiddenFrames } from '../../../harness/records/hidden-frames.ts'

test('frames in node, Vitest, chai and Vite go; the message and every other frame stay, in order', () => {
  const stack = [
    "AssertionError: the option number in <ANSWER> (correct: 1. child): expected '9' to be '1'",
    'a second line of the message',
    '    at Object.run (/home/me/llm-testbench/suites/farel/farel.ts:61:101)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:104:5)',
    '    at runCase (/home/me/llm-testbench/harness/benchmark.ts:220:5)',
    '    at /home/me/llm-testbench/harness/benchmark.ts:102:15',
    '    at async file:///home/me/llm-testbench/node_modules/vitest/dist/chunks/run.zBhXlcZQ.js:2864:20',
    '    at Proxy.<anonymous> (file:///home/me/llm-testbench/node_modules/@vitest/expect/dist/index.js:1:1)',
    '    at assert (file:///home/me/llm-testbench/node_modules/chai/index.js:1:1)',
    '    at ModuleRunner.import (file:///home/me/llm-testbench/node_modules/vite/dist/node/module-runner.js:1:1)',
    '    at new APIError (file:///home/me/llm-testbench/node_modules/openai/core/error.mjs:8:9)',
    '    at readFile (node:fs:10:2)',
  ].join('\n')
  expect(withoutHiddenFrames(stack)?.split('\n')).toEqual([
    "AssertionError: the option number in <ANSWER> (correct: 1. child): expected '9' to be '1'",
    'a second line of the message',
    '    at Object.run (/home/me/llm-testbench/suites/farel/farel.ts:61:101)',
    '    at runCase (/home/me/llm-testbench/harness/benchmark.ts:220:5)',
    '    at /home/me/llm-testbench/harness/benchmark.ts:102:15',
    '    at new APIError (file:///home/me/llm-testbench/node_modules/openai/core/error.mjs:8:9)',
  ])
  expect(withoutHiddenFrames(undefined)).toBeUndefined()
})
