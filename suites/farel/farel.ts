import type { ChatMessage } from '../../adapters/models/model-adapter.ts'
import { benchmark, type BenchItem, type Part } from '../../harness/benchmark.ts'
import { parseAnswer } from './answer.ts'
import { describeSet, farelOptions, isPublishedSet, type FarelOptions } from './options.ts'
import { generateQuizzes, type Quiz } from './quiz.ts'
import { farelFacts, SUITE, type FarelScoring } from './score.ts'

/**
 * FaRel (farel-bench): family-relationship quizzes of lengths 1…L, each class
 * asked TESTBENCH_FAREL_PER_CLASS times; the score FaRel-L is the mean of the
 * per-class accuracies (suites/farel/score.ts). By default the quizzes are
 * the published FaRel-3 set, drawn byte for byte as the original does.
 * The items are declared in parts (`farel-<k>.test.ts`), so `--shard` spreads them over machines.
 */
interface FarelItem extends BenchItem {
  quiz: Quiz
}

/** The quizzes of each set drawn in this worker: the part files of a suite share a worker's modules, and draw once. */
const drawn = new Map<string, Quiz[]>()

function quizzesOf(options: FarelOptions): Quiz[] {
  // The seed may be a bigint, which JSON cannot write as it is.
  const key = JSON.stringify(options, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))
  const quizzes = drawn.get(key) ?? generateQuizzes(options)
  drawn.set(key, quizzes)
  return quizzes
}

export function declareFarel(part: Part): void {
  const options = farelOptions()
  const published = isPublishedSet(options)
  const set = describeSet(options)
  const items: FarelItem[] = quizzesOf(options).map((quiz) => ({
    id: `${quiz.relation} #${quiz.index}`,
    reference: `<ANSWER>${quiz.correct}</ANSWER>`,
    quiz,
  }))

  benchmark({
    suite: SUITE,
    items,
    part,
    scoring: farelFacts,
    concurrent: true,
    async run({ quiz }, bench) {
      const scoring: FarelScoring = {
        relation: quiz.relation,
        length: quiz.length,
        rank: quiz.rank,
        maxLength: options.length,
        correct: quiz.correct,
        options: quiz.options.length,
        system: options.systemSource,
        template: options.templateSource,
        set,
        published,
        ...(options.parse === 'tag' ? {} : { parse: options.parse }),
      }
      bench.record({ scoring })
      const messages: ChatMessage[] = [{ role: 'user', content: quiz.prompt }]
      if (options.system !== undefined) messages.unshift({ role: 'system', content: options.system })
      const reply = await bench.ask(messages, { temperature: 0.01, seed: 42 })
      const answer = parseAnswer(reply.text, options.parse)
      const correct = String(quiz.correct)
      bench.record({
        extracted: answer ?? '',
        ...(answer === undefined
          ? {
              outcome: 'no_answer',
              reason:
                options.parse === 'tag'
                  ? 'The reply has no <ANSWER> tag.'
                  : 'The reply has no <ANSWER>N</ANSWER> and no \\boxed{N} with an option number.',
            }
          : {
              outcome: answer === correct ? 'passed' : 'wrong_answer',
              reason: `Answered ${answer}; the correct option is ${correct} (${quiz.relation}).`,
            }),
      })
      bench.expect(answer, `the option number in <ANSWER> (correct: ${correct}. ${quiz.relation})`).toBe(correct)
    },
  })
}
