import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { calculate } from '../../../../suites/euler/tools/calculator.ts'
import { clojureBalance, syntaxCheck } from '../../../../suites/euler/tools/syntax-check.ts'
import { updatePlan } from '../../../../suites/euler/tools/update-plan.ts'
import { skipWithoutSandbox } from '../../../support/sandbox-available.ts'

const ANSWER_KEY = fileURLToPath(new URL('../../../../fixtures/euler/datasets/euler/solutions.json', import.meta.url))

describe('syntax_check', () => {
  test(
    'Python is compiled in the sandbox, never run, and a syntax error is said as upstream says it',
    { timeout: 60_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python'])
      expect(await syntaxCheck('python', 'main.py', 'print(1)\n')).toEqual({ ok: true, output: 'Syntax OK', error: '' })
      expect(await syntaxCheck('python', 'main.py', 'def f(:\n')).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^SyntaxError at line 1, column \d+: /),
      })
      // Compiling runs nothing: a program that would print the marker of a pass, or loop, is only compiled.
      expect(await syntaxCheck('python', 'main.py', 'import os\nos.system("echo pwned")\nwhile True: pass\n')).toEqual({
        ok: true,
        output: 'Syntax OK',
        error: '',
      })
    },
  )

  test(
    'Java and Rust are compiled in the sandbox; a compile-time read of the answer key finds nothing',
    { timeout: 120_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['java', 'rust'])
      const java =
        'public class Main {\n  static { System.exit(3); }\n  public static void main(String[] args) { System.out.println(1); }\n}\n'
      expect(await syntaxCheck('java', 'Main.java', java)).toEqual({ ok: true, output: 'Syntax OK', error: '' })
      expect(await syntaxCheck('java', 'Main.java', 'public class Main { void f( }')).toMatchObject({
        ok: false,
        error: expect.stringContaining('error'),
      })
      expect(await syntaxCheck('java', 'Main.java', 'class Main {}')).toEqual({
        ok: false,
        output: '',
        error: 'No public class found in the Java code',
      })
      expect(await syntaxCheck('rust', 'main.rs', 'fn main() { println!("{}", 1); }\n')).toEqual({
        ok: true,
        output: 'Syntax OK',
        error: '',
      })
      const attack = `const KEY: &str = include_str!(${JSON.stringify(ANSWER_KEY)});\nfn main() { println!("{}", KEY); }\n`
      const attacked = await syntaxCheck('rust', 'main.rs', attack)
      expect(attacked.ok).toBe(false)
      expect(attacked.error).toMatch(/couldn't read|No such file/)
      expect(attacked.error).not.toContain('1180591620717411303424')
    },
  )

  test("Clojure gets upstream's bracket and string check", () => {
    expect(clojureBalance('(println (+ 1 2))')).toEqual({ ok: true, output: 'Parentheses OK', error: '' })
    expect(clojureBalance('(println "(")')).toMatchObject({ ok: true })
    expect(clojureBalance('(let [a 1]\n  (println a)))')).toMatchObject({ ok: false, error: "Unmatched ')' at line 2" })
    expect(clojureBalance('(defn f [x]\n {:a x')).toMatchObject({ ok: false, error: "Unclosed '{' from line 2" })
    expect(clojureBalance('(println "abc)')).toMatchObject({ ok: false, error: 'Unterminated string literal' })
  })
})

describe('calculator', () => {
  test(
    "evaluates upstream's arithmetic with Python's numbers, in the sandbox, and nothing else",
    { timeout: 60_000 },
    async (context) => {
      await skipWithoutSandbox(context, ['python'])
      expect(await calculate('2**100')).toMatchObject({ ok: true, output: '1267650600228229401496703205376' })
      expect(await calculate('sqrt(2) + factorial(5) // 7')).toMatchObject({ ok: true, output: '18.414213562373096' })
      expect(await calculate('max([1, 5, 3]) % 4, 7 / 2')).toMatchObject({ ok: true, output: '(1, 3.5)' })
      expect(await calculate('1/0')).toMatchObject({ ok: false, error: 'Calculation error: division by zero' })
      expect(await calculate('open("/etc/passwd")')).toMatchObject({ ok: false, error: 'Unsupported function call.' })
      expect(await calculate('x = 1')).toMatchObject({ ok: false, error: 'Invalid expression: invalid syntax' })
      expect(await calculate('[x for x in range(3)]')).toMatchObject({
        ok: false,
        error: 'Unsupported expression element: ListComp',
      })
      expect(await calculate('"a" * 3')).toMatchObject({ ok: false, error: 'Unsupported constant: str' })
      expect(await calculate('  ')).toMatchObject({ ok: false, error: 'expression must not be empty.' })
    },
  )
})

test('update_plan checks the plan as upstream does and answers its summary', () => {
  expect(
    updatePlan(
      [
        { step: 'Write', status: 'completed' },
        { step: 'Check', status: 'in_progress' },
      ],
      'now',
    ),
  ).toEqual({
    ok: true,
    error: '',
    output:
      '{"ok": true, "explanation": "now", "plan": [{"step": "Write", "status": "completed"}, {"step": "Check", "status": "in_progress"}], ' +
      '"summary": {"step_count": 2, "completed_count": 1, "in_progress_step": "Check"}, "warnings": []}',
  })
  expect(updatePlan([], undefined)).toMatchObject({ ok: false, error: 'plan must contain at least one step.' })
  expect(
    updatePlan(
      [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'in_progress' },
      ],
      undefined,
    ),
  ).toMatchObject({ error: 'At most one plan step can be in_progress.' })
  expect(updatePlan([{ step: 'a', status: 'doing' }], undefined)).toMatchObject({
    error: 'plan[0].status must be one of: pending, in_progress, completed.',
  })
  expect(
    updatePlan(
      [
        { step: 'a', status: 'pending' },
        { step: 'A', status: 'pending' },
      ],
      undefined,
    ).output,
  ).toContain('"warnings": ["Duplicate step text: A", "No step is currently marked in_progress."]')
})
