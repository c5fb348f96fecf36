import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { isStoredProvider, ResultsFile, resultsFile, type ResultKey } from '../../../suites/euler/results-file.ts'

const key: ResultKey = {
  model: 'ollama:qwen2.5',
  digest: 'abc',
  language: 'python',
  itemId: '0001',
  sample: 0,
  era: 'current',
  answerInCode: false,
}
const passed = {
  outcome: 'passed' as const,
  extracted: 'print(233168)',
  output: 'Printed the answer',
  reply: '```python\nprint(233168)\n```',
  latencyMs: 1200,
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function freshFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'euler-results-'))
  dirs.push(dir)
  return resultsFile(join(dir, 'reports'))
}

describe('ResultsFile', () => {
  test('lives in the report dir as euler-results.jsonl', () => {
    expect(resultsFile('/r')).toBe('/r/euler-results.jsonl')
  })

  test('a saved result is reused by a later run, and by this one', async () => {
    const path = freshFile()
    const file = new ResultsFile(path)
    expect(file.reusable(key)).toBeUndefined()
    await file.save(key, passed)
    expect(file.reusable(key)?.record).toEqual(passed)
    expect(new ResultsFile(path).reusable(key)).toMatchObject({ ...key, record: passed })
  })

  test('any difference in model, digest, language, problem, sample, era or the answer-in-code rule is another result', async () => {
    const path = freshFile()
    await new ResultsFile(path).save(key, passed)
    const file = new ResultsFile(path)
    const others: ResultKey[] = [
      { ...key, model: 'ollama:llama3' },
      { ...key, digest: 'a re-pulled model' },
      { ...key, language: 'java' },
      { ...key, itemId: '0002' },
      { ...key, sample: 1 },
      { ...key, era: 'pe100' },
      { ...key, answerInCode: true },
    ]
    for (const other of others) expect(file.reusable(other), JSON.stringify(other)).toBeUndefined()
  })

  test('the latest line for a key wins', async () => {
    const path = freshFile()
    const file = new ResultsFile(path)
    await file.save(key, { ...passed, outcome: 'wrong_answer' })
    await file.save(key, passed)
    expect(new ResultsFile(path).reusable(key)?.record.outcome).toBe('passed')
  })

  test('provider and infra failures are not reused: they were not the model’s doing', async () => {
    const path = freshFile()
    const file = new ResultsFile(path)
    await file.save(key, { ...passed, outcome: 'provider_error' })
    await file.save({ ...key, itemId: '0002' }, { ...passed, outcome: 'infra_error' })
    await file.save({ ...key, itemId: '0003' }, { ...passed, outcome: 'timeout' })
    const reread = new ResultsFile(path)
    expect(reread.reusable(key)).toBeUndefined()
    expect(reread.reusable({ ...key, itemId: '0002' })).toBeUndefined()
    expect(reread.reusable({ ...key, itemId: '0003' })?.record.outcome).toBe('timeout')
  })

  test('a torn last line from a killed run, or a line that is not a result, is skipped', async () => {
    const path = freshFile()
    await new ResultsFile(path).save(key, passed)
    appendFileSync(path, '{"model":"ollama:qwen2.5","digest":"abc","language":"py')
    appendFileSync(path, '\n{"model": 1}\n[]\n\n')
    const file = new ResultsFile(path)
    expect(file.reusable(key)?.record).toEqual(passed)
    await file.save({ ...key, itemId: '0002' }, passed)
    expect(new ResultsFile(path).reusable({ ...key, itemId: '0002' })).toBeDefined()
  })

  test('concurrent saves write whole lines', async () => {
    const path = freshFile()
    const file = new ResultsFile(path)
    const reply = 'x'.repeat(100_000)
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        file.save({ ...key, itemId: String(i).padStart(4, '0') }, { ...passed, reply }),
      ),
    )
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(50)
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ record: { reply } })
  })
})

test('answers from the data (reference, replay) are never stored', () => {
  expect(['reference', 'replay', 'ollama', 'openai'].map(isStoredProvider)).toEqual([false, false, true, true])
})
