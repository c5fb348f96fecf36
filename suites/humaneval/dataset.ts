/** HumanEval and HumanEval+ as PythonTasks: the pinned files and the mapping of their rows. */
import {
  readDatasetJsonLines,
  stringField,
  type DatasetFile,
  type JsonRecord,
} from '../../harness/datasets/dataset-file.ts'
import { instructionPrompt } from '../../harness/python-tasks/prompt.ts'
import { fencedPython, importLines, type PythonTask } from '../../harness/python-tasks/python-task.ts'

export const HUMANEVAL_VARIANTS = ['humaneval', 'humaneval+'] as const
export type HumanEvalVariant = (typeof HUMANEVAL_VARIANTS)[number]

export const HUMANEVAL_FILES: Readonly<Record<HumanEvalVariant, DatasetFile>> = {
  humaneval: {
    dataset: 'humaneval',
    file: 'HumanEval.jsonl.gz',
    url: 'https://raw.githubusercontent.com/openai/human-eval/6d43fb980f9fee3c892a914eda09951f772ad10d/data/HumanEval.jsonl.gz',
    sha256: 'b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef',
  },
  // EvalPlus v0.1.10 in the original HumanEval format: one check(candidate) with every base and plus input and its expected output.
  'humaneval+': {
    dataset: 'humanevalplus',
    file: 'HumanEvalPlus-OriginFmt.jsonl.gz',
    url: 'https://raw.githubusercontent.com/evalplus/humanevalplus_release/200defce9e3429d28ca215b6dd061c0f7f31c18b/HumanEvalPlus-OriginFmt.jsonl.gz',
    sha256: 'daa7661c8189924068069b0872a440b491edb60f8bdf431d5957adc88d18bae5',
  },
}

/**
 * HumanEval+ in EvalPlus's own format (v0.1.10): each task's base and plus inputs, which the
 * judge runs the canonical solution on to get the expected outputs (evalplus/evaluate.py does the same).
 */
export const HUMANEVAL_PLUS_NATIVE: DatasetFile = {
  dataset: 'humanevalplus',
  file: 'HumanEvalPlus.jsonl.gz',
  url: 'https://raw.githubusercontent.com/evalplus/humanevalplus_release/200defce9e3429d28ca215b6dd061c0f7f31c18b/HumanEvalPlus.jsonl.gz',
  sha256: '272720b90ac375502c8ed23cd791c2a93dfb22a911641a494da74a426c09f101',
}

/**
 * Tasks whose upstream canonical solution fails the task's own tests on this
 * harness: not run, and listed as excluded in the scores (never counted as passed).
 */
export const EXCLUDED: Readonly<Record<HumanEvalVariant, Readonly<Record<string, string>>>> = {
  humaneval: {},
  'humaneval+': {},
}

export function excludedTasks(variant: string): Array<{ itemId: string; reason: string }> {
  const excluded: Readonly<Record<string, string>> = isHumanEvalVariant(variant) ? EXCLUDED[variant] : {}
  return Object.entries(excluded).map(([itemId, reason]) => ({ itemId, reason }))
}

export function isHumanEvalVariant(value: string): value is HumanEvalVariant {
  return (HUMANEVAL_VARIANTS as readonly string[]).includes(value)
}

/** Where the human-eval samples and the Codex paper stop a completion: at the next top-level statement. */
export const HUMANEVAL_STOP = ['\nclass', '\ndef', '\n#', '\nif', '\nprint']

export async function loadHumanEval(
  variant: HumanEvalVariant,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PythonTask[]> {
  const file = HUMANEVAL_FILES[variant]
  const rows = await readDatasetJsonLines(file, { env })
  const tasks = rows.map((row, index) => humanEvalTask(row, `${file.dataset}/${file.file} row ${index + 1}`))
  // HumanEval+ is judged by inputs and outputs, as EvalPlus judges it; HumanEval by openai/human-eval's own check(candidate), replayed in the judge.
  if (variant === 'humaneval+')
    for (const task of tasks) task.judge = { io: { kind: 'humaneval', file: HUMANEVAL_PLUS_NATIVE } }
  return tasks.filter((task) => EXCLUDED[variant][task.id] === undefined)
}

export function humanEvalTask(row: JsonRecord, where: string): PythonTask {
  const id = stringField(row, 'task_id', where)
  const prompt = stringField(row, 'prompt', where)
  const entryPoint = stringField(row, 'entry_point', where)
  return {
    id,
    title: entryPoint,
    entryPoint,
    chatPrompt: instructionPrompt(prompt),
    completionPrompt: prompt,
    stop: HUMANEVAL_STOP,
    completionPrefix: prompt,
    preamble: importLines(prompt).join('\n'),
    reference: fencedPython(prompt + stringField(row, 'canonical_solution', where)),
    // As human-eval builds its check program: prompt + completion, test, check(entry_point); the check's helpers (poly, encode_cyclic) are the prompt's.
    judge: {
      check: {
        prelude: prompt + stringField(row, 'canonical_solution', where),
        setup: '',
        test: `${stringField(row, 'test', where)}\n\ncheck(${entryPoint})`,
        functions: [entryPoint],
      },
    },
  }
}
