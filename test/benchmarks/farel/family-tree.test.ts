import { describe, expect, test } from 'vitest'
import { familyTree, familyTrees, MAX_LENGTH, relationClasses } from '../../../suites/farel/family-tree.ts'
import { FEMALE_NAMES, MALE_NAMES } from '../../../suites/farel/names.ts'
import { generateQuizzes, PUBLISHED_SET, type QuizSetOptions } from '../../../suites/farel/quiz.ts'

/**
 * Everything here is checked against the graph itself: who is whose parent,
 * then how many generations up to the nearest common ancestor and down again,
 * and the genealogical name of that (up, down) written out by hand below.
 */
const NAMES: Record<string, string> = {
  '0,1': 'child',
  '1,0': 'parent',
  '0,2': 'grandchild',
  '1,1': 'sibling',
  '2,0': 'grandparent',
  '0,3': 'great grandchild',
  '1,2': 'niece or nephew',
  '2,1': 'aunt or uncle',
  '3,0': 'great grandparent',
  '0,4': 'great great grandchild',
  '1,3': 'grand-niece or grand-nephew',
  '2,2': '1st cousin',
  '3,1': 'grand-aunt or grand-uncle',
  '4,0': 'great great grandparent',
  '0,5': '3rd great grandchild',
  '1,4': 'great grand-niece or great grand-nephew',
  '2,3': '1st cousin 1x removed (younger generation)',
  '3,2': '1st cousin 1x removed (older generation)',
  '4,1': 'great grand-aunt or great grand-uncle',
  '5,0': '3rd great grandparent',
  '0,6': '4th great grandchild',
  '1,5': 'great great grand-niece or great great grand-nephew',
  '2,4': '1st cousin 2x removed (younger generation)',
  '3,3': '2nd cousin',
  '4,2': '1st cousin 2x removed (older generation)',
  '5,1': 'great great grand-aunt or great great grand-uncle',
  '6,0': '4th great grandparent',
}

/** (up, down) from `about` to `person`: generations up to their nearest common ancestor, then down. */
function kinship(parents: ReadonlyMap<number, number>, person: number, about: number): [number, number] {
  const aboveAbout = new Map<number, number>()
  for (let at: number | undefined = about, up = 0; at !== undefined; at = parents.get(at), up++) aboveAbout.set(at, up)
  let down = 0
  for (let at: number | undefined = person; at !== undefined; at = parents.get(at), down++) {
    const up = aboveAbout.get(at)
    if (up !== undefined) return [up, down]
  }
  throw new Error(`${person} and ${about} are not related`)
}

/** child → parent, checking that the statements make one tree: everyone but its root has exactly one parent. */
function parentsOf(statements: ReadonlyArray<readonly [number, number]>, people: number): Map<number, number> {
  const parents = new Map<number, number>()
  for (const [parent, child] of statements) {
    expect(parents.has(child), `${child} has two parents`).toBe(false)
    parents.set(child, parent)
  }
  const roots = Array.from({ length: people }, (_, who) => who).filter((who) => !parents.has(who))
  expect(roots).toHaveLength(1)
  return parents
}

describe('family trees, checked on the graph', () => {
  test('length 3: 10 people, 9 statements, the nine classes of the published table', () => {
    const tree = familyTree(3)
    expect(tree.people).toBe(10)
    expect(tree.statements).toHaveLength(9)
    expect(relationClasses(3).map((c) => `${c.length}:${c.name}`)).toEqual([
      '1:child',
      '1:parent',
      '2:grandchild',
      '2:sibling',
      '2:grandparent',
      '3:great grandchild',
      '3:niece or nephew',
      '3:aunt or uncle',
      '3:great grandparent',
    ])
  })

  test.for(Array.from({ length: MAX_LENGTH }, (_, i) => i + 1))(
    'length %i: one tree, L+1 classes, each class named for its place in the graph',
    (length) => {
      const tree = familyTree(length)
      expect(tree.statements).toHaveLength(tree.people - 1)
      const parents = parentsOf(tree.statements, tree.people)
      expect(tree.classes).toHaveLength(length + 1)
      for (const relation of tree.classes) {
        const [up, down] = kinship(parents, relation.person, 0)
        expect(up + down, relation.name).toBe(length)
        expect([relation.up, relation.down], relation.name).toEqual([up, down])
        const known = NAMES[`${up},${down}`]
        if (known !== undefined) expect(relation.name).toBe(known)
        else expect(relation.name).toMatch(genericName(up, down))
      }
    },
  )

  test('every person of a tree is related to person 0 by a length of at most L', () => {
    for (const tree of familyTrees(6)) {
      const parents = parentsOf(tree.statements, tree.people)
      for (let person = 1; person < tree.people; person++) {
        const [up, down] = kinship(parents, person, 0)
        expect(up + down).toBeLessThanOrEqual(tree.length)
      }
    }
  })

  test('from length 5 on, no class name appears twice among the options (the original lists "1st cousin 1x removed" twice)', () => {
    for (let length = 1; length <= MAX_LENGTH; length++) {
      const names = familyTree(length).classes.map((c) => c.name)
      expect(new Set(names).size, `length ${length}: ${names.join(' | ')}`).toBe(names.length)
    }
    expect(familyTree(5).classes.map((c) => c.name)).toContain('1st cousin 1x removed (older generation)')
  })

  test('a length outside 1… is refused', () => {
    expect(() => familyTrees(0)).toThrow(/at least 1/)
  })
})

/** The shape of a name not in the table: ordinals and `great`s as the original writes them. */
function genericName(up: number, down: number): RegExp {
  if (up === 0) return new RegExp(`^${down - 2}(st|nd|rd|th) great grandchild$`)
  if (down === 0) return new RegExp(`^${up - 2}(st|nd|rd|th) great grandparent$`)
  if (up === 1) return new RegExp(`^(${down - 3}(st|nd|rd|th) )?great grand-niece or .*grand-nephew$`)
  if (down === 1) return new RegExp(`^(${up - 3}(st|nd|rd|th) )?great grand-aunt or .*grand-uncle$`)
  const removed = Math.abs(up - down)
  const side = removed === 0 ? '' : ` ${removed}x removed \\(${down > up ? 'younger' : 'older'} generation\\)`
  return new RegExp(`^${Math.min(up, down) - 1}(st|nd|rd|th) cousin${side}$`)
}

/** A quiz read back from its text alone: who is whose parent, who is asked about whom, and the options. */
function readQuiz(prompt: string) {
  const statements = [...prompt.matchAll(/^\* (\w+) is (\w+)'s? parent\.$/gm)].map(
    ([, parent, child]) => [parent!, child!] as const,
  )
  const question = /^What is (\w+)'s? relationship to (\w+)\?$/m.exec(prompt)
  const options = [...prompt.matchAll(/^(\d+)\. (\w+) is (\w+)'s? (.+)\.$/gm)].map(([, n, person, about, name]) => ({
    n: Number(n),
    person,
    about,
    name: name!,
  }))
  if (!question) throw new Error(`no question in\n${prompt}`)
  return { statements, person: question[1]!, about: question[2]!, options }
}

describe('generated quizzes, checked against the relationships their text states', () => {
  const sets: Array<[string, QuizSetOptions]> = [
    ['the published set', PUBLISHED_SET],
    ['seedrandom, length 6', { ...PUBLISHED_SET, mode: 'seedrandom', length: 6, perClass: 4, seed: 7n }],
    ['python-compat, length 5, unshuffled', { ...PUBLISHED_SET, length: 5, perClass: 3, shuffle: false }],
  ]

  test.for(sets)('%s', ([, options]) => {
    const quizzes = generateQuizzes(options)
    expect(quizzes).toHaveLength(options.perClass * relationClasses(options.length).length)
    for (const quiz of quizzes) {
      const read = readQuiz(quiz.prompt)
      const people = [...new Set(read.statements.flat())]
      const tree = familyTree(quiz.length)
      expect(read.statements).toHaveLength(tree.statements.length)
      expect(people).toHaveLength(tree.people) // distinct names
      for (const name of people) expect([...MALE_NAMES, ...FEMALE_NAMES]).toContain(name)
      const index = new Map(people.map((name, i) => [name, i]))
      const parents = parentsOf(
        read.statements.map(([parent, child]) => [index.get(parent)!, index.get(child)!] as const),
        people.length,
      )
      const [up, down] = kinship(parents, index.get(read.person)!, index.get(read.about)!)
      expect(up + down).toBe(quiz.length)
      const expected = NAMES[`${up},${down}`]!
      expect(quiz.relation).toBe(expected)
      expect(read.options.map((o) => o.n)).toEqual(tree.classes.map((_, i) => i + 1))
      expect(read.options.every((o) => o.person === read.person && o.about === read.about)).toBe(true)
      expect(read.options.map((o) => o.name).sort()).toEqual(tree.classes.map((c) => c.name).sort())
      expect(read.options[quiz.correct - 1]!.name).toBe(expected)
      if (!options.shuffle) expect(read.options.map((o) => o.name)).toEqual(tree.classes.map((c) => c.name))
    }
  })

  test('with shuffle the option order and the statement order vary; without, the options keep the tree order', () => {
    const shuffled = generateQuizzes({ ...PUBLISHED_SET, perClass: 20 }).filter((q) => q.length === 3)
    expect(new Set(shuffled.map((q) => q.options.join('|'))).size).toBeGreaterThan(5)
    expect(new Set(shuffled.map((q) => q.correct)).size).toBe(4)
    const firstLines = new Set(shuffled.map((q) => readQuiz(q.prompt).statements[0]!.join('>')))
    expect(firstLines.size).toBeGreaterThan(10)
  })

  test('the same seed draws the same set; the seedrandom mode is reproducible too', () => {
    const options: QuizSetOptions = { ...PUBLISHED_SET, mode: 'seedrandom', seed: 99n, perClass: 5 }
    expect(generateQuizzes(options)).toEqual(generateQuizzes(options))
    expect(generateQuizzes(options)).not.toEqual(generateQuizzes({ ...options, seed: 100n }))
  })
})
