import { runProgram, type RunResult } from '../../../adapters/sandbox/index.ts'
import { toolFailed, toolSucceeded, type ToolAnswer } from '../../../harness/conversation/tool.ts'

/** The languages upstream's `syntax_check` takes, in its schema's order. */
export const SYNTAX_CHECK_LANGUAGES = ['python', 'java', 'rust', 'clojure'] as const
export type SyntaxCheckLanguage = (typeof SYNTAX_CHECK_LANGUAGES)[number]

const LIMITS = { wallMs: 30_000, cpuSeconds: 30, memoryBytes: 1024 * 1024 * 1024 }

/**
 * PE-Bench's `syntax_check`: the file compiled, never run. Python, Java and Rust are compiled in the
 * sandbox (its warm paths: the fork server, the warm javac) by a small entry program of ours that never
 * calls the model's code, so a program that attacks at compile time meets the sandbox; Clojure gets
 * upstream's own check, a bracket and string balance done on the text.
 */
export async function syntaxCheck(language: SyntaxCheckLanguage, path: string, code: string): Promise<ToolAnswer> {
  switch (language) {
    case 'python':
      return judged(
        await runProgram({
          language: 'python',
          files: { 'main.py': PYTHON_CHECK, 'candidate.py': code },
          stdin: path,
          limits: LIMITS,
        }),
      )
    case 'java': {
      const className = /public\s+class\s+(\w+)/.exec(code)?.[1]
      if (className === undefined) return toolFailed('No public class found in the Java code')
      const files = { [`${className}.java`]: code, [`${JAVA_CHECK_CLASS}.java`]: javaCheck(className) }
      return judged(
        await runProgram({
          language: 'java',
          files,
          main: `${JAVA_CHECK_CLASS}.java`,
          limits: LIMITS,
          compileLimits: LIMITS,
        }),
      )
    }
    case 'rust':
      return judged(
        await runProgram({
          language: 'rust',
          files: { 'main.rs': RUST_CHECK, 'candidate.rs': code },
          limits: LIMITS,
          compileLimits: LIMITS,
        }),
      )
    case 'clojure':
      return clojureBalance(code)
  }
}

/** Compiles the candidate with its workspace path (on stdin) as the file name, as `ast.parse` would report it. */
const PYTHON_CHECK = `import sys
source = open('candidate.py', encoding='utf-8', errors='replace').read()
try:
    compile(source, sys.stdin.read() or '<inline>', 'exec')
except SyntaxError as error:
    print(f'SyntaxError at line {error.lineno}, column {error.offset}: {error.msg}')
    sys.exit(1)
except ValueError as error:
    print(f'SyntaxError: {error}')
    sys.exit(1)
print('Syntax OK')
`

const JAVA_CHECK_CLASS = 'TestbenchSyntaxCheck'

/** Names the candidate's class without using it, so that javac compiles it and nothing of it runs. */
function javaCheck(className: string): string {
  return `public class ${JAVA_CHECK_CLASS} {\n    static Class<?> checked = ${className}.class;\n    public static void main(String[] args) {\n        System.out.println("Syntax OK");\n    }\n}\n`
}

/** The candidate as a module of ours: rustc compiles it whole, and only our `main` runs. */
const RUST_CHECK =
  '#[allow(dead_code, unused)]\n#[path = "candidate.rs"]\nmod candidate;\n\nfn main() {\n    println!("Syntax OK");\n}\n'

function judged(result: RunResult): ToolAnswer {
  switch (result.outcome) {
    case 'passed':
      return toolSucceeded('Syntax OK')
    case 'compile_error':
      return toolFailed((result.compileOutput ?? result.stderr.text).trim() || 'The syntax check failed.')
    case 'runtime_error':
      return toolFailed(result.stdout.text.trim() || result.stderr.text.trim() || result.reason)
    case 'timeout':
      return toolFailed(`The syntax check took longer than ${LIMITS.wallMs / 1000} s.`)
    case 'memory':
      return toolFailed('The syntax check ran out of memory.')
    case 'infra_error':
      throw new Error(`The syntax check could not run in the sandbox: ${result.reason}`)
  }
}

/** Upstream's Clojure check: brackets matched and strings closed, read on the text alone. */
export function clojureBalance(code: string): ToolAnswer {
  const closerOf: Record<string, string> = { '(': ')', '[': ']', '{': '}' }
  const openerOf: Record<string, string> = { ')': '(', ']': '[', '}': '{' }
  const stack: Array<{ opener: string; line: number }> = []
  let inString = false
  let escaped = false
  let line = 1
  for (const character of code) {
    if (character === '\n') line += 1
    if (inString) {
      if (escaped) escaped = false
      else if (character === '\\') escaped = true
      else if (character === '"') inString = false
      continue
    }
    if (character === '"') inString = true
    else if (closerOf[character] !== undefined) stack.push({ opener: character, line })
    else if (openerOf[character] !== undefined) {
      if (stack[stack.length - 1]?.opener !== openerOf[character])
        return toolFailed(`Unmatched '${character}' at line ${line}`)
      stack.pop()
    }
  }
  if (inString) return toolFailed('Unterminated string literal')
  const open = stack[stack.length - 1]
  if (open !== undefined) return toolFailed(`Unclosed '${open.opener}' from line ${open.line}`)
  return toolSucceeded('Parentheses OK')
}
