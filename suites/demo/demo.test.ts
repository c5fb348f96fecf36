import { benchmark, type BenchItem } from '../../harness/benchmark.ts'

/**
 * A tiny arithmetic benchmark that walks the whole path (prompt, ask, extract,
 * judge, record, assert) without a sandbox, so a new install can prove its
 * plumbing: `MODEL=reference npx vitest run suites/demo`.
 */
interface Sum extends BenchItem {
  a: number
  b: number
}

const items: Sum[] = [
  [2, 3],
  [17, 25],
  [123, 877],
  [-40, 2],
  [99_999, 1],
].map(([a = 0, b = 0]) => ({ id: `sum-${a}+${b}`, title: `${a} + ${b}`, a, b, reference: `<ANSWER>${a + b}</ANSWER>` }))

benchmark({
  suite: 'demo',
  items,
  concurrent: true,
  async run(item, bench) {
    const reply = await bench.ask(
      `What is ${item.a} + ${item.b}? Think if you need to, then give the number in an <ANSWER> tag, e.g. <ANSWER>7</ANSWER>.`,
      { temperature: 0 },
    )
    const answer = /<ANSWER>\s*(-?\d+)\s*<\/ANSWER>/.exec(reply.text)?.[1]
    const correct = String(item.a + item.b)
    bench.record({
      extracted: answer ?? '',
      ...(answer === undefined
        ? { outcome: 'no_answer', reason: 'The reply has no <ANSWER> tag with a number.' }
        : {
            outcome: answer === correct ? 'passed' : 'wrong_answer',
            reason: `Answered ${answer}; the sum is ${correct}.`,
          }),
    })
    bench.expect(answer, 'the number in <ANSWER>').toBe(correct)
  },
})
