/** Where the problems come from: the data directory when TESTBENCH_DATA_DIR is set, else the scraper's cache. */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatasetFileError } from '../../../harness/datasets/dataset-file.ts'
import { cacheDir, dataDir } from '../../../harness/knobs.ts'
import { SHA256 } from '../knobs.ts'
import type { EulerOptions } from '../options.ts'
import { loadProblems, type EulerProblem } from './problems.ts'
import { scrapeProblems } from './scraper.ts'

export async function eulerProblems(
  options: EulerOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EulerProblem[]> {
  const shared = dataDir(env)
  if (shared !== undefined) {
    // TESTBENCH_DATA_DIR is the datasets directory (holding euler/); the euler directory itself is understood too.
    const dir =
      existsSync(join(shared, 'solutions.json')) && !existsSync(join(shared, 'euler')) ? shared : join(shared, 'euler')
    await verifySolutions(join(dir, 'solutions.json'), env)
    return loadProblems(dir, options.problems)
  }
  const dir = join(cacheDir(env), 'euler')
  await scrapeProblems({ dir, numbers: options.problems, delayMs: options.scrapeDelayMs })
  return loadProblems(dir, options.problems)
}

/** Orbiter/project-euler-llm-benchmark's solutions.json, the only version it has had (commit a3a6324). */
const SOLUTIONS_URL =
  'https://raw.githubusercontent.com/Orbiter/project-euler-llm-benchmark/03c692c7c70068e2c6e3393608d6360c526241e4/solutions.json'
const SOLUTIONS_SHA256 = '1baf3e78babdcf4a3a12d384ac6f0a73d38f4bf9a304b91e546d491e8c98062c'

/** The answers decide every verdict, so they are pinned like every other dataset file. */
async function verifySolutions(path: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (!existsSync(path)) {
    throw new DatasetFileError(
      `euler/solutions.json is not in TESTBENCH_DATA_DIR (looked for ${path}). Put the file there (public source: ${SOLUTIONS_URL}).`,
    )
  }
  // Made-up answers (the project's fixtures) are pinned explicitly by the one who made them.
  const expected = SHA256.read(env) ?? SOLUTIONS_SHA256
  const actual = createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
  if (actual !== expected) {
    throw new DatasetFileError(
      `euler/solutions.json in TESTBENCH_DATA_DIR (${path}) has sha256 ${actual}, but ${expected} is expected: ` +
        `it is another version of the file or a damaged copy. Replace it with the file from ${SOLUTIONS_URL}.`,
    )
  }
}
