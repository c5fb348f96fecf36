import { benchmark, fencedBlocks, largestBlock, runProgram, type BenchItem } from 'llm-testbench'

/** A computation the model writes a program for; the answer stays here, out of the program's reach. */
interface Puzzle extends BenchItem {
  asks: string
  answer: string
}

const puzzles: Puzzle[] = [
  { id: 'digits', asks: 'the sum of the decimal digits of 2 to the power 100', answer: '115' },
  { id: 'primes', asks: 'how many prime numbers are below 1000', answer: '168' },
  { id: 'fibonacci', asks: 'the 30th Fibonacci number, where the 1st and the 2nd are 1', answer: '832040' },
  { id: 'multiples', asks: 'how many of the integers 1 to 1000 are divisible by 3 or by 5', answer: '467' },
].map((puzzle) => ({ ...puzzle, title: puzzle.asks, reference: referenceReply(puzzle.id) }))

benchmark({
  suite: 'puzzles',
  items: puzzles,
  concurrent: true,
  async run(puzzle, bench) {
    const reply = await bench.ask(
      `Write a Python 3 program that prints ${puzzle.asks}, and nothing else. Reply with the program in one fenced code block.`,
      { temperature: 0 },
    )
    const program = largestBlock(fencedBlocks(reply.text))
    if (program === undefined) {
      bench.record({ outcome: 'no_answer', reason: 'The reply has no fenced code block.' })
      bench.expect.fail('the reply has no program')
      return
    }
    // The program runs in the sandbox; only what it prints comes back, and the judge is this test.
    const result = await runProgram({ language: 'python', files: { 'main.py': program }, limits: { wallMs: 10_000 } })
    const printed = result.stdout.text.trim()
    const right = result.outcome === 'passed' && printed === puzzle.answer
    bench.record({
      extracted: program,
      outcome: result.outcome !== 'passed' ? result.outcome : right ? 'passed' : 'wrong_answer',
      reason:
        result.outcome !== 'passed'
          ? result.reason
          : `Printed ${JSON.stringify(printed)}; the answer is ${puzzle.answer}.`,
    })
    bench.expect(result.outcome, result.reason).toBe('passed')
    bench.expect(printed, 'what the program printed').toBe(puzzle.answer)
  },
})

/** What MODEL=reference answers: a program that computes the answer, so the whole path runs. */
function referenceReply(id: string): string {
  const programs: Record<string, string> = {
    digits: 'print(sum(int(digit) for digit in str(2 ** 100)))',
    primes: 'print(sum(all(n % d for d in range(2, int(n ** 0.5) + 1)) for n in range(2, 1000)))',
    fibonacci: 'a, b = 1, 1\nfor _ in range(28):\n    a, b = b, a + b\nprint(b)',
    multiples: 'print(sum(1 for n in range(1, 1001) if n % 3 == 0 or n % 5 == 0))',
  }
  return `\`\`\`python\n${programs[id]}\n\`\`\``
}
