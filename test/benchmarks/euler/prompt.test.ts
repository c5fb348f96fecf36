import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { LANGUAGES, LANGUAGE_IDS } from '../../../suites/euler/languages.ts'
import { loadProblems } from '../../../suites/euler/dataset/problems.ts'
import { buildPrompt, problemStatement } from '../../../suites/euler/prompt.ts'

const FIXTURE = fileURLToPath(new URL('../../../fixtures/euler/datasets/euler', import.meta.url))
const [sumBelowTen, fruits, , , , lost] = await loadProblems(FIXTURE, [1, 2, 3, 4, 5, 6])
if (!sumBelowTen || !fruits || !lost) throw new Error('fixture problems missing')

describe('problemStatement', () => {
  test('appends each attachment as "Attachment <file>" and a fenced block', () => {
    expect(problemStatement(fruits)).toBe(
      'The attachment fruits.txt lists fruits, one per line.\n\nHow many of them begin with the letter A?\n\n' +
        'Attachment fruits.txt\n```\nApple\nBanana\nApricot\nCherry\nAvocado\n```',
    )
  })

  test('refuses a problem whose attachment is missing, naming the problem and the file', () => {
    expect(() => problemStatement(lost)).toThrow(
      /^Problem 0006 \(Lost Numbers\) cannot be asked: .*lost\.txt does not exist/,
    )
  })
})

describe('buildPrompt, current era', () => {
  test.for(LANGUAGE_IDS)('%s: role, problem, how it runs, the rules, an example printing 5050', (id) => {
    const language = LANGUAGES[id]
    const prompt = buildPrompt(fruits, language, 'current')
    expect(prompt).toMatch(
      new RegExp(
        `^You are a ${escape(language.name)} programmer\\. Write a ${escape(language.name)} program for the following problem:\\n\\n`,
      ),
    )
    expect(prompt).toContain(problemStatement(fruits))
    expect(prompt).toContain(language.howItRuns)
    expect(prompt).toContain('IMPORTANT REQUIREMENTS:')
    expect(prompt).toContain('No file I/O')
    expect(prompt).toContain('exactly one line')
    expect(prompt).toContain(`\`\`\`${language.tags[0]}\n${language.example}\n\`\`\``)
    expect(prompt).toContain('5050')
    expect(prompt.endsWith('Now solve the problem above following these rules exactly.')).toBe(true)
  })
})

describe('buildPrompt, PE-100 era', () => {
  test('the short prompt: problem description, no file IO, no needless imports, a single value', () => {
    const prompt = buildPrompt(sumBelowTen, LANGUAGES.python, 'pe100')
    expect(prompt).toBe(
      'Write a Python program for the following problem description:\n\n' +
        'Find the sum of all the natural numbers below 10.\n\n' +
        'The program must not use any file IO. It should not use any imports unless they are absolutely necessary. ' +
        'The program must only output a single value, which is the solution.',
    )
  })

  test('inlines attachments too, and refuses a problem whose attachment is missing', () => {
    expect(buildPrompt(fruits, LANGUAGES.rust, 'pe100')).toContain('Attachment fruits.txt\n```\nApple')
    expect(() => buildPrompt(lost, LANGUAGES.rust, 'pe100')).toThrow(/Problem 0006/)
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
