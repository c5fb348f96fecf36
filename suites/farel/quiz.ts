/**
 * FaRel quizzes: a family tree told as "A is B's parent" statements, the
 * question "What is X's relationship to Y?" and the class names of the
 * tree's length as numbered options.
 *
 * The draws happen in the original farel-bench's order, so that with
 * CPython's random (python-compat) the published set comes out byte for byte:
 * per quiz, the option order (sample), the statement order (shuffle), a
 * gender per person (choice), then a random order of each name list (sample).
 */
import seedrandom from 'seedrandom'
import { familyTrees, type FamilyTree } from './family-tree.ts'
import { FEMALE_NAMES, MALE_NAMES } from './names.ts'
import { PythonRandom, Sampler } from './python-random.ts'

export const DEFAULT_TEMPLATE =
  'Given the family relationships:\n$QUIZ_RELATIONS\n$QUIZ_QUESTION\nSelect the correct answer:\n$QUIZ_ANSWERS\n' +
  'Enclose the selected answer number in the <ANSWER> tag, for example: <ANSWER>1</ANSWER>.'

/** The placeholders a template must have: the statements, the question and the numbered options. */
export const TEMPLATE_PLACEHOLDERS = ['$QUIZ_RELATIONS', '$QUIZ_QUESTION', '$QUIZ_ANSWERS'] as const

/** The system prompt of the original's `-sys` runs. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a master of logical thinking. You carefully analyze the premises step by step, take detailed notes ' +
  'and draw intermediate conclusions based on which you can find the final answer to any question.'

/** `python-compat`: CPython's Mersenne Twister, the published set. `seedrandom`: the same draws from seedrandom's ARC4. */
export const MODES = ['python-compat', 'seedrandom'] as const
export type Mode = (typeof MODES)[number]

export interface QuizSetOptions {
  /** The longest relationship: quizzes of lengths 1…length. */
  length: number
  perClass: number
  /** A whole number (any size for python-compat, as Python's `random.seed(int)`). */
  seed: bigint
  mode: Mode
  /** Random order of the statements and of the options (the original's `--shuffle`). */
  shuffle: boolean
  template: string
}

export interface Quiz {
  /** The length of the asked relationship. */
  length: number
  /** The class: the correct option's name. */
  relation: string
  /** The class's position among the classes of its length. */
  rank: number
  /** 1…perClass within the class. */
  index: number
  /** The class names of this length, in the order the quiz lists them. */
  options: string[]
  /** The correct option's number, from 1. */
  correct: number
  prompt: string
}

/** The published set's options: `farel_bench.py -l 3 -n 50 -r 42 --shuffle` with its default prompt. */
export const PUBLISHED_SET: QuizSetOptions = {
  length: 3,
  perClass: 50,
  seed: 42n,
  mode: 'python-compat',
  shuffle: true,
  template: DEFAULT_TEMPLATE,
}

/** Every quiz of the set: lengths 1…length, classes in branch order, perClass quizzes each. */
export function generateQuizzes(options: QuizSetOptions): Quiz[] {
  const random = randomFor(options.mode, options.seed)
  const quizzes: Quiz[] = []
  for (const tree of familyTrees(options.length)) {
    const names = tree.classes.map((relation) => relation.name)
    for (const relation of tree.classes) {
      for (let index = 1; index <= options.perClass; index++) {
        const order = options.shuffle ? random.sample(names, names.length) : [...names]
        const correct = order.indexOf(relation.name) + 1
        const prompt = quizPrompt(tree, relation.person, order, random, options)
        quizzes.push({
          length: tree.length,
          relation: relation.name,
          rank: relation.rank,
          index,
          options: order,
          correct,
          prompt,
        })
      }
    }
  }
  return quizzes
}

export function randomFor(mode: Mode, seed: bigint): Sampler {
  if (mode === 'python-compat') return new PythonRandom(seed)
  return new SeedrandomSampler(seed.toString())
}

/** seedrandom's generator under CPython's choice, shuffle and sample. */
class SeedrandomSampler extends Sampler {
  private readonly next: seedrandom.PRNG

  constructor(seed: string) {
    super()
    this.next = seedrandom(seed)
  }

  randbelow(n: number): number {
    return Math.floor(this.next.double() * n)
  }
}

function quizPrompt(
  tree: FamilyTree,
  person: number,
  options: readonly string[],
  random: Sampler,
  set: QuizSetOptions,
): string {
  const statements = [...tree.statements]
  if (set.shuffle) random.shuffle(statements)
  const genders = Array.from({ length: tree.people }, () => random.choice(['male', 'female'] as const))
  const male = random.sample(MALE_NAMES, MALE_NAMES.length).values()
  const female = random.sample(FEMALE_NAMES, FEMALE_NAMES.length).values()
  const names = genders.map((gender, who) => {
    const next = (gender === 'male' ? male : female).next()
    if (next.done) throw new Error(`FaRel ran out of ${gender} names at person ${who} of ${tree.people}.`)
    return next.value
  })
  const asked = names[person]!
  const about = names[0]!
  const relations = statements
    .map(([parent, child]) => `* ${names[parent]} is ${possessive(names[child]!)} parent.`)
    .join('\n')
  const question = `What is ${possessive(asked)} relationship to ${about}?`
  const answers = options.map((option, i) => `${i + 1}. ${asked} is ${possessive(about)} ${option}.`).join('\n')
  return fillTemplate(set.template, {
    $QUIZ_RELATIONS: relations,
    $QUIZ_GENDERS: '',
    $QUIZ_QUESTION: question,
    $QUIZ_ANSWERS: answers,
  })
}

/** `Ralph's`, but `Charles'`. */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`
}

/** Replaces each placeholder in turn, every occurrence, as the original's chained `str.replace` does. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  let text = template
  for (const [placeholder, value] of Object.entries(values)) text = text.split(placeholder).join(value)
  return text
}
