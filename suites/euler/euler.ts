/**
 * PE-Bench: Project Euler problems solved by programs in Python, Java, Rust, Clojure… A
 * problem is solved when the model's program prints the answer as the last line of its
 * output within 10 s; it is worth 1325386 / solved_by points, and PE-Bench-<Lang>-<N> is the
 * points of the solved problems over N (score.ts). `MODEL=qwen2.5 npx vitest run suites/euler`
 * The items are declared in part files (`euler-<k>.test.ts`), so that `--shard` spreads them evenly.
 */
import { inject } from 'vitest'
import { thinkSetting } from '../../adapters/models/knobs.ts'
import type { ChatMessage, ChatParams } from '../../adapters/models/model-adapter.ts'
import { sandbox } from '../../adapters/sandbox/index.ts'
import { benchmark, declarePart, type BenchItem, type ItemContext, type Part } from '../../harness/benchmark.ts'
import { reportDir, sampleCount } from '../../harness/knobs.ts'
import { renderMessages } from '../../harness/records/render-messages.ts'
import { eulerProblems } from './dataset/data-source.ts'
import { extractProgram } from './extract.ts'
import { answerInCode } from './judge.ts'
import { LANGUAGES, type Language } from './languages.ts'
import { eulerOptions } from './options.ts'
import type { EulerProblem } from './dataset/problems.ts'
import { buildPrompt, REQUEST_PARAMS, SYSTEM_MESSAGE, userMessage } from './prompt.ts'
import { isStoredProvider, ResultsFile, resultsFile, type ResultKey, type StoredFields } from './results-file.ts'
import { runSolution, type Judgement } from './run-solution.ts'
import { eulerFacts, thinkingOf } from './score.ts'
import { referenceTrajectory } from './reference-trajectory.ts'
import { runToolAgent, TOOL_PARAMS, toolMessages } from './tool-mode.ts'

interface EulerItem extends BenchItem {
  problem: EulerProblem
}

const options = eulerOptions()
const results = new ResultsFile(resultsFile(reportDir()))
const think = thinkSetting()
const thinking = thinkingOf(think)
const statedSize = {
  ...(options.parameters === undefined ? {} : { parameters: options.parameters }),
  ...(options.bits === undefined ? {} : { bits: options.bits }),
}

/** Declares part `part` of the items of every language (the part files `euler-<k>.test.ts` split them for --shard). */
export function declareEuler(part: Part): Promise<void> {
  return declarePart('euler', part, async () => {
    const problems = await eulerProblems(options)
    for (const language of options.languages.map((id) => LANGUAGES[id])) {
      const unavailable = await sandbox().unavailable(language.id)
      if (unavailable !== undefined) {
        throw new Error(
          `PE-Bench: ${unavailable} Install it, or leave ${language.id} out with TESTBENCH_EULER_LANGUAGES (now ${options.languages.join(',')}).`,
        )
      }
      if (part.index === 1) announceStoredResults(language, problems)
      declareLanguage(language, problems, part)
    }
  })
}

function declareLanguage(language: Language, problems: readonly EulerProblem[], part: Part): void {
  benchmark<EulerItem>({
    suite: 'euler',
    variant: language.id,
    scoring: eulerFacts,
    concurrent: true,
    part,
    items: problems.map((problem) => ({
      id: problem.id,
      title: problem.title,
      reference:
        options.mode === 'tool'
          ? JSON.stringify(referenceTrajectory(language, language.printing(problem.answer)))
          : `\`\`\`${language.tags[0]}\n${language.printing(problem.answer)}\n\`\`\``,
      problem,
    })),
    async run({ problem }, bench) {
      const modeFacts = {
        ...(options.mode === 'tool' ? { mode: 'tool' as const } : {}),
        ...(thinking === undefined ? {} : { thinking }),
      }
      bench.record({
        scoring: { points: problem.points, problem: problem.number, era: options.era, ...statedSize, ...modeFacts },
      })
      const messages =
        options.mode === 'tool'
          ? toolMessages(problem, language)
          : promptMessages(buildPrompt(problem, language, options.era), problem)
      const key = resultKey(bench.model, language, problem.id, bench.sample)
      const kept = isStoredProvider(bench.model.provider)
      const stored = kept && !options.overwrite ? results.reusable(key)?.record : undefined
      const result =
        stored ??
        (options.mode === 'tool'
          ? await solveWithTools(messages, language, problem, bench)
          : await solve(messages, language, problem, bench))
      bench.record(stored ? { prompt: renderMessages(messages), ...stored } : result)
      if (kept && !stored && result.outcome !== 'infra_error') await results.save(key, result)
      bench.expect(result.outcome, result.output).toBe('passed')
    },
  })
}

/** Asks the model, takes the program out of its reply, and judges it. */
async function solve(
  messages: ChatMessage[],
  language: Language,
  problem: EulerProblem,
  bench: ItemContext,
): Promise<StoredFields> {
  const reply = await bench.ask(messages, withThink(REQUEST_PARAMS))
  const program = extractProgram(reply.text, language)
  return {
    ...(await judgeProgram(program, language, problem)),
    extracted: program ?? '',
    reply: reply.text,
    latencyMs: reply.latencyMs,
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    ...(reply.tokens ? { tokens: reply.tokens } : {}),
  }
}

/** Lets the agent work through its tools, and judges the file it delivered as a one-shot program is judged. */
async function solveWithTools(
  messages: ChatMessage[],
  language: Language,
  problem: EulerProblem,
  bench: ItemContext,
): Promise<StoredFields> {
  const { conversation, delivery } = await runToolAgent(messages, withThink(TOOL_PARAMS), bench)
  const told = {
    trajectory: conversation.trajectory,
    conversationEnd: conversation.end,
    latencyMs: Math.round(conversation.latencyMs),
    tokens: conversation.tokens,
  }
  if (delivery === undefined) {
    const reason = `${conversation.end.reason} Nothing was delivered.`
    return { outcome: 'no_answer', reason, output: reason, extracted: '', ...told }
  }
  return {
    ...(await judgeProgram(delivery.content === '' ? undefined : delivery.content, language, problem)),
    extracted: delivery.content,
    ...told,
  }
}

function withThink(params: ChatParams): ChatParams {
  return think === undefined ? params : { ...params, think }
}

function promptMessages(prompt: string, problem: EulerProblem): ChatMessage[] {
  return [{ role: 'system', content: SYSTEM_MESSAGE }, userMessage(prompt, problem)]
}

async function judgeProgram(
  program: string | undefined,
  language: Language,
  problem: EulerProblem,
): Promise<Judgement> {
  if (program === undefined)
    return { outcome: 'no_answer', reason: 'The reply holds no program.', output: 'The reply holds no program.' }
  if (options.answerInCode && answerInCode(program, problem.answer)) {
    const reason =
      'The answer appears in the code (TESTBENCH_EULER_ANSWER_IN_CODE=1): counted as solved without running it.'
    return { outcome: 'passed', reason, output: reason }
  }
  return runSolution(program, language, problem.answer, options)
}

function resultKey(
  model: { label: string; details: Record<string, string | number> },
  language: Language,
  itemId: string,
  sample: number,
): ResultKey {
  const digest = model.details.digest
  return {
    model: model.label,
    digest: digest === undefined ? '' : String(digest),
    language: language.id,
    itemId,
    sample,
    era: options.era,
    answerInCode: options.answerInCode,
    ...(options.mode === 'tool' ? { mode: options.mode } : {}),
    ...(think === undefined ? {} : { think }),
  }
}

/** Says, before the run, which model × language results are reused from earlier runs. */
function announceStoredResults(language: Language, problems: readonly EulerProblem[]): void {
  if (options.overwrite) return
  for (const model of inject('benchModels').filter((model) => isStoredProvider(model.provider))) {
    const keys = problems.flatMap((problem) =>
      Array.from({ length: sampleCount() }, (_, sample) => resultKey(model, language, problem.id, sample)),
    )
    const stored = keys.filter((key) => results.reusable(key)).length
    if (stored === 0) continue
    const what = stored === keys.length ? `all ${stored} results are` : `${stored} of ${keys.length} results are`
    console.info(
      `PE-Bench ${model.label} × ${language.id}: ${what} stored in ${results.path} and reused (TESTBENCH_EULER_OVERWRITE=1 runs them again).`,
    )
  }
}
