import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../fixtures/euler/datasets', import.meta.url))
const FIXTURE_SOLUTIONS_SHA256 = 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f'
const FIXTURE_REPLIES = fileURLToPath(new URL('../../fixtures/euler/replies.jsonl', import.meta.url))

/** The environment of a run of PE-Bench, python, problems 1–2, replayed from the fixture, writing into `dir`. */
export function eulerReplay(dir: string): Record<string, string> {
  return {
    TESTBENCH_CACHE: 'off',
    TESTBENCH_CACHE_DIR: join(dir, 'cache'),
    TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    MODEL: `replay:${FIXTURE_REPLIES}`,
    TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
    TESTBENCH_EULER_SHA256: FIXTURE_SOLUTIONS_SHA256,
    TESTBENCH_EULER_LANGUAGES: 'python',
    TESTBENCH_EULER_PROBLEMS: '1-2',
  }
}

/** What a run that stopped before its first item, because no sandbox can run programs, prints first. */
export const NO_SANDBOX_CAN_RUN =
  /euler run\(s\) model-written programs, and no sandbox can run them here; nothing was asked or run/
