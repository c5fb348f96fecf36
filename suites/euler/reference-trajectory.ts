import type { Language } from './languages.ts'
import { mainFile } from './run-solution.ts'
import { SYNTAX_CHECK_LANGUAGES } from './tools/syntax-check.ts'

/**
 * What MODEL=reference does in tool mode: writes the known program, checks its syntax (where upstream's
 * syntax_check takes the language), and delivers it; as turns in the `replay:` trajectory format.
 */
export function referenceTrajectory(language: Language, program: string): { turns: unknown[] } {
  const path = mainFile(program, language)
  const check = (SYNTAX_CHECK_LANGUAGES as readonly string[]).includes(language.id)
  return {
    turns: [
      { content: 'Writing the program.', tool_calls: [{ name: 'write_file', arguments: { path, content: program } }] },
      ...(check
        ? [
            {
              content: 'Checking its syntax.',
              tool_calls: [{ name: 'syntax_check', arguments: { language: language.id, path } }],
            },
          ]
        : []),
      { content: 'Delivering it.', tool_calls: [{ name: 'deliver_code', arguments: { path } }] },
    ],
  }
}
