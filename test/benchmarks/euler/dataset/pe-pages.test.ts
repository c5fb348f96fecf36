import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseAnswerList, parseArchivePage, parseProblemPage } from '../../../../suites/euler/dataset/pe-pages.ts'

const page = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/euler/pages/${name}`, import.meta.url), 'utf8')

describe('parseProblemPage', () => {
  test('paragraphs become blank-line separated text, MathJax and entities kept as a reader sees them', async () => {
    expect(await parseProblemPage(page('minimal-1.html'))).toEqual({
      text:
        'If we add the natural numbers below $10$ that are even, we get $2, 4, 6$ and $8$. Their sum is $20$.\n\n' +
        'Find the sum of all the natural numbers below $1000$ that are even & not multiples of $3$.',
      attachments: [],
      images: [],
    })
  })

  test('a linked data file becomes "the attachment <file>", its save-link hint dropped; other links keep their text', async () => {
    const { text, attachments } = await parseProblemPage(page('minimal-2.html'))
    expect(attachments).toEqual([{ name: '0002_fruits.txt', href: 'resources/documents/0002_fruits.txt' }])
    expect(text).toMatch(/^Using the attachment 0002_fruits\.txt, a small text file of fruit names, count/)
    expect(text).not.toContain('right click')
    expect(text).toContain('See also the about page.')
  })

  test('<br> breaks lines, images are marked, sup/sub are written inline, table rows are lines', async () => {
    const { text } = await parseProblemPage(page('minimal-2.html'))
    expect(text).toContain(
      'path of length $4$:\n\n1 2\n3 4\n5 6\n\n(see image)\n\nThe value 2^10 is $1024$, and x_1 is the first term.',
    )
    expect(text).toContain('Hand Player\n1 Player 1')
  })

  test('a query string on the attachment link does not end up in the file name', async () => {
    expect(
      (await parseProblemPage('<p>Use <a href="resources/documents/0099_base_exp.txt?123">base_exp.txt</a>.</p>'))
        .attachments,
    ).toEqual([{ name: '0099_base_exp.txt', href: 'resources/documents/0099_base_exp.txt?123' }])
  })
})

describe('parseArchivePage', () => {
  test('reads number, title and solved-by count of every problem row, skipping the header', async () => {
    expect(await parseArchivePage(page('archives-page-1.html'))).toEqual([
      { number: 1, title: 'Even Numbers Below a Thousand', solvedBy: 662693 },
      { number: 2, title: 'Fruits Beginning with $\\text{A}$', solvedBy: 1325386 },
      { number: 3, title: 'A Problem Nobody Answered', solvedBy: 12 },
    ])
  })

  test('a page without the problems table has no rows', async () => {
    expect(await parseArchivePage('<html><body><p>Please log in</p></body></html>')).toEqual([])
  })
})

describe('parseAnswerList', () => {
  test('reads "N. answer" lines and skips problems without an answer', () => {
    expect(parseAnswerList(page('answers.md'))).toEqual(
      new Map([
        [1, '166334'],
        [2, '2'],
      ]),
    )
  })

  test('keeps answers that are not integers exactly as written', () => {
    expect(parseAnswerList('27. -59231\n175. 1,13717420,8\n236. 123/59\n')).toEqual(
      new Map([
        [27, '-59231'],
        [175, '1,13717420,8'],
        [236, '123/59'],
      ]),
    )
  })
})
