import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { runSuiteForRecords } from '../../support/run-vitest.ts'
import { skipWithoutSandbox } from '../../support/sandbox-available.ts'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../../fixtures/euler/datasets', import.meta.url))
const FIXTURE_SOLUTIONS_SHA256 = 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f'
const TRAJECTORIES = fileURLToPath(new URL('../../../fixtures/euler/tool-trajectories.jsonl', import.meta.url))
const FIXTURE = {
  TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
  TESTBENCH_EULER_SHA256: FIXTURE_SOLUTIONS_SHA256,
  TESTBENCH_EULER_MODE: 'tool',
}

function byItem(records: readonly ItemRecord[]): Map<string, ItemRecord> {
  return new Map(records.map((record) => [`${record.variant ?? ''} ${record.itemId}`, record]))
}

function results(record: ItemRecord | undefined): Array<[string, string | undefined]> {
  return (record?.trajectory ?? []).flatMap((turn) =>
    turn.calls.map((call): [string, string | undefined] => [call.name, call.result]),
  )
}

describe('PE-Bench tool mode end to end', () => {
  test(
    'MODEL=reference writes, checks and delivers the known program in every language, and scores perfectly',
    { timeout: 240_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python', 'java', 'rust', 'clojure'])
      const { code, output, records } = await runSuiteForRecords('euler', {
        ...FIXTURE,
        MODEL: 'reference',
        TESTBENCH_EULER_LANGUAGES: 'python,java,rust,clojure',
        TESTBENCH_EULER_PROBLEMS: '1-2',
        // A JVM that starts slowly on a loaded machine must not fail a perfect run.
        TESTBENCH_EULER_RUN_TIMEOUT_MS: '60000',
      })
      expect(code, output).toBe(0)
      expect(records.map((record) => record.outcome)).toEqual(Array(8).fill('passed'))
      for (const record of records) {
        expect(results(record).map(([name]) => name)).toEqual(['write_file', 'syntax_check', 'deliver_code'])
        expect(results(record)[1]?.[1]).toMatch(/"exit_code": 0, "stdout": "(Syntax OK|Parentheses OK)"/)
        expect(record.conversationEnd).toEqual({
          kind: 'tool',
          tool: 'deliver_code',
          reason: 'Turn 3 called deliver_code, which ended the conversation.',
        })
        expect(record.scoring).toMatchObject({ mode: 'tool' })
      }
      for (const language of ['Python', 'Java', 'Rust', 'Clojure'])
        expect(output).toMatch(new RegExp(`PE-Bench-${language}-2-tool = 1\\.50 \\(solved 2/2\\)`))
      expect(output).toMatch(/PE-2-tool-Score = 1\.50/)
      expect(output).toMatch(/\| reference \|.*\| Non-Thinking Tool Usage \|/)
    },
  )

  test(
    'replayed trajectories: a delivery that passes and one that fails, a model that stops calling tools, one past its calls, one at 48 turns, hostile arguments',
    { timeout: 180_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python'])
      const { code, output, records } = await runSuiteForRecords('euler', {
        ...FIXTURE,
        MODEL: `replay:${TRAJECTORIES}`,
        TESTBENCH_EULER_LANGUAGES: 'python',
        TESTBENCH_EULER_PROBLEMS: '1-5',
      })
      expect(code, output).toBe(1)
      const items = byItem(records)
      const outcome = (id: string) => [items.get(`python ${id}`)?.outcome, items.get(`python ${id}`)?.reason]
      expect(outcome('0001')).toEqual(['passed', 'Printed the answer as its last line: 45'])
      expect(outcome('0002')).toEqual(['wrong_answer', 'The last line printed, "2", is not the answer.'])
      expect(outcome('0003')).toEqual(['no_answer', 'Turn 2 made no tool call. Nothing was delivered.'])
      expect(outcome('0004')).toEqual(['passed', 'Printed the answer as its last line: 1180591620717411303424'])
      expect(outcome('0005')).toEqual([
        'no_answer',
        'Reached the limit of 48 model turns before finishing. Nothing was delivered.',
      ])

      // The 13th list_files is answered as upstream answers it, and the delivery after it still counts.
      const exhausted = results(items.get('python 0004'))
      expect(exhausted[11]).toEqual([
        'list_files',
        '{"tool": "list_files", "exit_code": 0, "stdout": "", "stderr": ""}',
      ])
      expect(exhausted[12]).toEqual([
        'list_files',
        '{"tool": "list_files", "exit_code": 1, "stdout": "", "stderr": "Tool list_files is no longer available because it reached the call limit."}',
      ])
      expect(items.get('python 0005')?.trajectory).toHaveLength(48)

      // Hostile arguments are tool errors, the calculator runs nothing but arithmetic, and the item is judged on its delivery.
      const hostile = results(items.get('python 0001')).map(([, result]) => result)
      expect(hostile.slice(0, 8)).toEqual([
        '{"tool": "write_file", "exit_code": 1, "stdout": "", "stderr": "Path must be workspace-relative."}',
        '{"tool": "read_file", "exit_code": 1, "stdout": "", "stderr": "Path must be workspace-relative."}',
        '{"tool": "read_file", "exit_code": 1, "stdout": "", "stderr": "Path must be workspace-relative."}',
        '{"tool": "calculator", "exit_code": 1, "stdout": "", "stderr": "Unsupported function call."}',
        '{"tool": "calculator", "exit_code": 1, "stdout": "", "stderr": "Unsupported function call."}',
        '{"tool": "calculator", "exit_code": 1, "stdout": "", "stderr": "Calculation error: the expression took longer than 5 s."}',
        '{"tool": "calculator", "exit_code": 0, "stdout": "1180591620717411303433", "stderr": ""}',
        '{"tool": "write_file", "exit_code": 1, "stdout": "", "stderr": "Tool arguments are not valid JSON."}',
      ])
      expect(output).toMatch(/PE-Bench-Python-5-tool = 1\.06 \(solved 2\/5\)/)
    },
  )
})
