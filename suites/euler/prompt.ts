/** The PE-Bench prompts: the problem (attachments inlined) in the wording of the current era or of the PE-100 era. */
import type { ChatMessage } from '../../adapters/models/model-adapter.ts'
import type { Language } from './languages.ts'
import type { Era } from './options.ts'
import type { EulerProblem } from './dataset/problems.ts'

/** The original's request: this system message, temperature 0, up to 32768 tokens. */
export const SYSTEM_MESSAGE = 'You are a helpful assistant'
export const REQUEST_PARAMS = { temperature: 0, maxTokens: 32768 } as const

/** The user's message: the prompt, with the problem's first image for models that can see (the adapter leaves it out for others). */
export function userMessage(prompt: string, problem: EulerProblem): ChatMessage {
  return { role: 'user', content: prompt, ...(problem.image === undefined ? {} : { images: [problem.image] }) }
}

export function buildPrompt(problem: EulerProblem, language: Language, era: Era): string {
  const statement = problemStatement(problem)
  return era === 'pe100' ? pe100Prompt(statement, language) : currentPrompt(statement, language)
}

/** The problem text, then each attachment as `Attachment <file>` and its content in a fenced block. */
export function problemStatement(problem: EulerProblem): string {
  if (problem.missingAttachments.length > 0) {
    throw new Error(
      `Problem ${problem.id} (${problem.title}) cannot be asked: it needs attachment data the data directory lacks: ` +
        `${problem.missingAttachments.join('; ')}. Add the file, or leave the problem out with TESTBENCH_EULER_PROBLEMS.`,
    )
  }
  const attachments = problem.attachments.map(
    (attachment) => `Attachment ${attachment.name}\n\`\`\`\n${attachment.content.replace(/\n+$/, '')}\n\`\`\``,
  )
  return [problem.text, ...attachments].join('\n\n')
}

function currentPrompt(statement: string, language: Language): string {
  const tag = language.tags[0] ?? language.id
  return `${requirements(statement, language, [`- Put the whole program in one ${tag} code block fenced with triple backticks.`])}

EXAMPLE: for "the sum of the numbers from 1 to 100" a correct program is
\`\`\`${tag}
${language.example}
\`\`\`
and it prints \`5050\`.

Now solve the problem above following these rules exactly.`
}

/**
 * Tool mode's user message, made as upstream's `build_tool_prompt` makes it: the one-shot prompt without its
 * code-block rule and example, then upstream's additional instructions.
 */
export function toolPrompt(problem: EulerProblem, language: Language): string {
  return `${requirements(problemStatement(problem), language, [])}

Now solve the problem above following these rules exactly.

Additional instructions:
- Produce only runnable ${language.id} source code.
- Use the tools to draft files, inspect them, and check syntax before delivery.
- Finish by calling deliver_code with the final workspace file path.
- Do not return markdown fences or explanations in the delivered code.
`
}

function requirements(statement: string, language: Language, more: readonly string[]): string {
  return [
    `You are a ${language.name} programmer. Write a ${language.name} program for the following problem:`,
    '',
    statement,
    '',
    'IMPORTANT REQUIREMENTS:',
    `- ${language.howItRuns}`,
    '- Import only what the solution really needs.',
    '- No assertions, logging or debug output.',
    '- No file I/O: any data the problem refers to is given above; put it into your program.',
    `- The program must print exactly one line: the numeric answer. Print it with ${language.printWith}.`,
    ...more,
  ].join('\n')
}

function pe100Prompt(statement: string, language: Language): string {
  return `Write a ${language.name} program for the following problem description:

${statement}

The program must not use any file IO. It should not use any imports unless they are absolutely necessary. The program must only output a single value, which is the solution.`
}
