// How the bench scripts set a suite beside its upstream evaluator: one untimed warm-up round, then rounds in which
// every contestant runs once, a different one first each round, with the machine's load printed after each.
import { load, median } from './bench-figures.ts'

export interface Contestant {
  name: string
  /** One run; its wall time in ms. */
  run: () => Promise<number>
}

/** Each contestant's times, in ms, over `rounds` rounds after a warm-up round (default 1) that is not kept. */
export async function interleave(
  contestants: readonly Contestant[],
  rounds: number,
  warmUpRounds = 1,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>()
  const seconds = (ms: number | undefined): string => ((ms ?? NaN) / 1000).toFixed(2)
  for (let round = -warmUpRounds; round < rounds; round++) {
    // A different contestant goes first each round, so that none always meets a cold disk cache or a busy neighbour.
    const shift = ((round % contestants.length) + contestants.length) % contestants.length
    const order = contestants.map((_, index) => contestants[(index + shift) % contestants.length] as Contestant)
    const taken = new Map<string, number>()
    for (const contestant of order) taken.set(contestant.name, await contestant.run())
    if (round >= 0) for (const [name, ms] of taken) times.set(name, [...(times.get(name) ?? []), ms])
    const label = round < 0 ? 'warm-up' : `round ${round + 1}`
    console.log(
      `${label}: ${order.map(({ name }) => `${name} ${seconds(taken.get(name))} s`).join(', ')} (load ${load()})`,
    )
  }
  return times
}

/** `a / b` of the medians, as printed in a bench's ratio lines. */
export function ratioOfMedians(a: readonly number[] | undefined, b: readonly number[] | undefined): number {
  return a === undefined || b === undefined ? NaN : median(a) / median(b)
}

/** Whether `ratio` meets `goal`, in the words the bench scripts print. */
export function goalVerdict(ratio: number, goal: number): string {
  return `goal ≤ ${goal.toFixed(1)}×: ${Number.isNaN(ratio) ? 'not measured' : ratio <= goal ? 'met' : 'NOT met'}`
}
