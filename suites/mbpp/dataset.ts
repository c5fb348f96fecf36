/** MBPP (full test split and sanitized) and MBPP+ as PythonTasks: the pinned files and the mapping of their rows. */
import {
  isRecord,
  numberField,
  readDatasetJson,
  readDatasetJsonLines,
  stringField,
  stringListField,
  type DatasetFile,
  type JsonRecord,
} from '../../harness/datasets/dataset-file.ts'
import { instructionPrompt } from '../../harness/python-tasks/prompt.ts'
import { fencedPython, type PythonTask } from '../../harness/python-tasks/python-task.ts'

/** `mbpp+` is MBPP+ v0.2.0 (378 tasks); `mbpp+v0.1.0` the 399 tasks of v0.1.0, on which most 2024 papers scored. */
export const MBPP_VARIANTS = ['mbpp', 'mbpp-sanitized', 'mbpp+', 'mbpp+v0.1.0'] as const
export type MbppVariant = (typeof MBPP_VARIANTS)[number]
/** What runs when TESTBENCH_MBPP_VARIANTS is unset; the sanitized split is opt-in. */
export const MBPP_DEFAULT_VARIANTS: readonly MbppVariant[] = ['mbpp', 'mbpp+']

export const MBPP_FILES = {
  full: {
    dataset: 'mbpp',
    file: 'mbpp.jsonl',
    // An unmodified copy of google-research's mbpp/mbpp.jsonl (the revision with task 341 fixed); that repository is too large to fetch from.
    url: 'https://raw.githubusercontent.com/FormulaMonks/llm-benchmarker-suite/5d3c8009ab8f5adab4899c34dd203cbf7afcb372/data/mbpp/mbpp.jsonl',
    sha256: '0b5e07b5b40fedd01c57b7c9177b79f8b2eebd72c304c928605d91a7237d2f33',
  },
  sanitized: {
    dataset: 'mbpp',
    file: 'sanitized-mbpp.json',
    url: 'https://raw.githubusercontent.com/patdfb/TPC-EES/7036e20c0ff3e9bcc2de60545dadd8c705599ecf/mbpp/sanitized-mbpp.json',
    sha256: '7fec016546acaee11dbe14f9f0bb670e59f41919f7b522a59fba34871da78551',
  },
  // EvalPlus MBPP+ v0.2.0: the native file has the prompts, the OriginFmt file the tests with their expected outputs inlined.
  plus: {
    dataset: 'mbppplus',
    file: 'MbppPlus.jsonl.gz',
    url: 'https://github.com/evalplus/mbppplus_release/releases/download/v0.2.0/MbppPlus.jsonl.gz',
    sha256: 'af43697e8791c4c149bdfd6b489d8b5412507551ac20e28a439f650b8225db63',
  },
  plusV010: {
    dataset: 'mbppplus',
    file: 'MbppPlus-v0.1.0.jsonl.gz',
    url: 'https://github.com/evalplus/mbppplus_release/releases/download/v0.1.0/MbppPlus.jsonl.gz',
    sha256: '57d639e77667d88930052b2b07212011c25c0bab94dfc1f19d15e1f7f558bfa9',
  },
} satisfies Record<string, DatasetFile>

/** The standard test split (upstream README): task ids 11–510. */
export const TEST_SPLIT = { first: 11, last: 510 }
/** The paper's three-shot examples, from the prompt split. */
export const FEW_SHOT_IDS = [2, 3, 4]
/** Where a few-shot completion ends, and where a base model continuing an MBPP+ docstring has written its function. */
export const MBPP_STOP = ['[DONE]']
export const MBPP_PLUS_STOP = ['\nif __name__', '\ndef main(', '\nprint(', '\nassert', '\n"""', '\n```']

/**
 * Tasks whose upstream reference solution fails the task's own tests on this
 * harness: not run, and listed as excluded in the scores (never counted as passed).
 */
export const EXCLUDED: Readonly<Record<MbppVariant, Readonly<Record<string, string>>>> = {
  mbpp: {},
  'mbpp-sanitized': {},
  'mbpp+': {},
  'mbpp+v0.1.0': {},
}

export function excludedTasks(variant: string): Array<{ itemId: string; reason: string }> {
  const excluded: Readonly<Record<string, string>> = isMbppVariant(variant) ? EXCLUDED[variant] : {}
  return Object.entries(excluded).map(([itemId, reason]) => ({ itemId, reason }))
}

export function isMbppVariant(value: string): value is MbppVariant {
  return (MBPP_VARIANTS as readonly string[]).includes(value)
}

export async function loadMbpp(variant: MbppVariant, env: NodeJS.ProcessEnv = process.env): Promise<PythonTask[]> {
  const tasks = await loadAllMbpp(variant, env)
  return tasks.filter((task) => EXCLUDED[variant][task.id] === undefined)
}

async function loadAllMbpp(variant: MbppVariant, env: NodeJS.ProcessEnv): Promise<PythonTask[]> {
  if (variant === 'mbpp') {
    const rows = (await readDatasetJsonLines(MBPP_FILES.full, { env })).map((row, index) =>
      mbppRow(row, `mbpp/mbpp.jsonl row ${index + 1}`),
    )
    const shots = FEW_SHOT_IDS.map((id) => rows.find((row) => row.taskId === id) ?? missing(id, 'mbpp/mbpp.jsonl'))
    return rows.filter(inTestSplit).map((row) => mbppTask(row, shots))
  }
  if (variant === 'mbpp-sanitized') {
    const data = await readDatasetJson(MBPP_FILES.sanitized, { env })
    if (!Array.isArray(data)) throw new Error('mbpp/sanitized-mbpp.json should hold a JSON list of tasks.')
    const rows = data.map((row, index) => sanitizedRow(row, `mbpp/sanitized-mbpp.json task ${index + 1}`))
    const shots = FEW_SHOT_IDS.map(
      (id) => rows.find((row) => row.taskId === id) ?? missing(id, 'mbpp/sanitized-mbpp.json'),
    )
    return rows.filter(inTestSplit).map((row) => mbppTask(row, shots))
  }
  // MBPP+ is judged as EvalPlus judges it: by its inputs, against the canonical solution's outputs, outside the program.
  const file = variant === 'mbpp+' ? MBPP_FILES.plus : MBPP_FILES.plusV010
  const rows = await readDatasetJsonLines(file, { env })
  return rows.map((row, index) => mbppPlusTask(row, `${file.dataset}/${file.file} row ${index + 1}`, file))
}

/** One MBPP task in the shape both original files share. */
export interface MbppRow {
  taskId: number
  text: string
  /** The reference solution, `\r\n` line ends made `\n`. */
  code: string
  testImports: string[]
  testSetup: string
  tests: string[]
}

export function mbppRow(row: JsonRecord, where: string): MbppRow {
  return {
    taskId: numberField(row, 'task_id', where),
    text: stringField(row, 'text', where),
    code: unixLines(stringField(row, 'code', where)),
    testImports: [],
    testSetup: unixLines(stringField(row, 'test_setup_code', where)),
    tests: stringListField(row, 'test_list', where).map(unixLines),
  }
}

export function sanitizedRow(value: unknown, where: string): MbppRow {
  if (!isRecord(value)) throw new Error(`${where} is not a JSON object.`)
  return {
    taskId: numberField(value, 'task_id', where),
    text: stringField(value, 'prompt', where),
    code: unixLines(stringField(value, 'code', where)),
    testImports: stringListField(value, 'test_imports', where),
    testSetup: '',
    tests: stringListField(value, 'test_list', where).map(unixLines),
  }
}

export function mbppTask(row: MbppRow, shots: readonly MbppRow[]): PythonTask {
  const entryPoint = mbppEntryPoint(row)
  const imports = row.testImports.join('\n')
  return {
    id: `Mbpp/${row.taskId}`,
    title: entryPoint,
    entryPoint,
    chatPrompt: `${mbppTaskText(row)}\n\nAnswer with the complete Python code in one \`\`\`python block.`,
    completionPrompt: [
      ...shots.map((shot) => `${mbppTaskText(shot)}\n[BEGIN]\n${shot.code}\n[DONE]`),
      `${mbppTaskText(row)}\n[BEGIN]\n`,
    ].join('\n'),
    stop: MBPP_STOP,
    completionPrefix: '',
    preamble: imports,
    reference: fencedPython(row.code),
    // The program, then (in its namespace) the test imports, the setup code and the asserts, as in upstream's one program.
    judge: {
      check: {
        prelude: row.code,
        setup: row.testSetup.trim() === '' ? '' : joinCode([imports, row.testSetup]),
        test: joinCode([imports, ...row.tests]),
      },
    },
  }
}

function joinCode(parts: readonly string[]): string {
  return parts.filter((part) => part.trim() !== '').join('\n')
}

/** The paper's format: the task, then "Your code should pass these tests:" and the three asserts. */
export function mbppTaskText(row: MbppRow): string {
  return `You are an expert Python programmer, and here is your task: ${row.text} Your code should pass these tests:\n\n${row.tests.join('\n')}`
}

/** MBPP names no entry point: it is the function the reference defines and the tests call. */
export function mbppEntryPoint(row: MbppRow): string {
  const defined = [...row.code.matchAll(/^def\s+(\w+)\s*\(/gm)].map((match) => match[1] ?? '')
  const tests = row.tests.join('\n')
  const called = defined.find((name) => new RegExp(`\\b${name}\\s*\\(`).test(tests))
  if (called === undefined)
    throw new Error(
      `Mbpp/${row.taskId}: none of the functions its reference defines (${defined.join(', ') || 'none'}) is called by its tests.`,
    )
  return called
}

/** One MBPP+ task from EvalPlus's native file: the docstring prompt, the canonical solution, and the inputs the judge reads from the same file. */
export function mbppPlusTask(row: JsonRecord, where: string, file: DatasetFile): PythonTask {
  const prompt = stringField(row, 'prompt', where)
  const entryPoint = stringField(row, 'entry_point', where)
  return {
    id: stringField(row, 'task_id', where),
    title: entryPoint,
    entryPoint,
    chatPrompt: instructionPrompt(prompt),
    completionPrompt: prompt,
    stop: MBPP_PLUS_STOP,
    completionPrefix: prompt,
    preamble: '',
    reference: fencedPython(stringField(row, 'canonical_solution', where)),
    judge: { io: { kind: 'mbpp', file } },
  }
}

function inTestSplit(row: MbppRow): boolean {
  return row.taskId >= TEST_SPLIT.first && row.taskId <= TEST_SPLIT.last
}

function unixLines(text: string): string {
  return text.replaceAll('\r\n', '\n')
}

function missing(id: number, file: string): never {
  throw new Error(`${file} has no task ${id}, one of the few-shot examples (${FEW_SHOT_IDS.join(', ')}).`)
}
