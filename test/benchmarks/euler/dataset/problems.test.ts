import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, test } from 'vitest'
import { loadProblems, plainTitle, pointsFor, problemId } from '../../../../suites/euler/dataset/problems.ts'
import { EULER_SNAPSHOT_MISSING, eulerSnapshot } from '../../../support/test-datasets.ts'

const FIXTURE = fileURLToPath(new URL('../../../../fixtures/euler/datasets/euler', import.meta.url))
const SHARED = eulerSnapshot() ?? ''

describe('loadProblems on the made-up fixture data', () => {
  test('reads text, plain title, answer, solved_by and points = 1325386 / solved_by', async () => {
    const [first, , third] = await loadProblems(FIXTURE, [1, 2, 3])
    expect(first).toEqual({
      number: 1,
      id: '0001',
      title: 'Sum Below Ten',
      text: 'Find the sum of all the natural numbers below 10.',
      attachments: [],
      missingAttachments: [],
      answer: '45',
      solvedBy: 662693,
      points: 2,
    })
    expect(third?.answer).toBe('-25')
    expect(third?.points).toBeCloseTo(13.25386, 10)
  })

  test('attaches the listed attachment files', async () => {
    const [fruits] = await loadProblems(FIXTURE, [2])
    expect(fruits?.attachments).toEqual([{ name: 'fruits.txt', content: 'Apple\nBanana\nApricot\nCherry\nAvocado\n' }])
  })

  test('names a listed attachment that is not there', async () => {
    const [lost] = await loadProblems(FIXTURE, [6])
    expect(lost?.attachments).toEqual([])
    expect(lost?.missingAttachments).toHaveLength(1)
    expect(lost?.missingAttachments[0]).toMatch(/resources\/lost\.txt does not exist$/)
  })

  test('a problem outside the data says which problem and what to do', async () => {
    await expect(loadProblems(FIXTURE, [7])).rejects.toThrow(
      /no answer and solved_by count for problem 0007; choose other problems with TESTBENCH_EULER_PROBLEMS/,
    )
  })
})

describe('loadProblems on ../shared/datasets/euler', () => {
  beforeEach((context) => context.skip(SHARED === '', EULER_SNAPSHOT_MISSING))
  test('problems 1-100 load with every attachment, and their best score is 32.07', async () => {
    const problems = await loadProblems(
      SHARED,
      Array.from({ length: 100 }, (_, i) => i + 1),
    )
    expect(problems.filter((problem) => problem.missingAttachments.length > 0)).toEqual([])
    expect(problems.filter((problem) => problem.attachments.length > 0).map((problem) => problem.number)).toEqual([
      22, 42, 54, 59, 67, 79, 81, 82, 83, 89, 96, 98, 99,
    ])
    const best = problems.reduce((sum, problem) => sum + problem.points, 0) / 100
    expect(Math.round(best * 100) / 100).toBe(32.07)
    expect(problems.find((problem) => problem.number === 7)?.title).toBe('10001st Prime')
    expect(problems.find((problem) => problem.number === 27)?.answer).toBe('-59231')
  })

  test('problems 1-200 load with every attachment, and their best score is 172.03', async () => {
    const problems = await loadProblems(
      SHARED,
      Array.from({ length: 200 }, (_, i) => i + 1),
    )
    expect(problems.filter((problem) => problem.missingAttachments.length > 0)).toEqual([])
    expect(Math.round((problems.reduce((sum, problem) => sum + problem.points, 0) / 200) * 100) / 100).toBe(172.03)
  })
})

test('problemId pads to four digits', () => {
  expect([1, 22, 330, 1000].map(problemId)).toEqual(['0001', '0022', '0330', '1000'])
})

test('pointsFor is 1325386 / solved_by', () => {
  expect(pointsFor(1325386)).toBe(1)
  expect(pointsFor(1017252)).toBeCloseTo(1.3029082272632544, 12)
})

test.for([
  ['$10\\,001$st Prime', '10001st Prime'],
  ['$1000$-digit Fibonacci Number', '1000-digit Fibonacci Number'],
  ['Convergents of $e$', 'Convergents of e'],
  ['$2^{70}$ in Full', '2^70 in Full'],
  ['Names Scores', 'Names Scores'],
])('plainTitle(%s) is %s', ([raw, plain]) => {
  expect(plainTitle(raw ?? '')).toBe(plain)
})
