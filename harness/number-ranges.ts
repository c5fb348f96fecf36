import { defineKnob, type Knob } from '../adapters/knob.ts'

/**
 * `1-100`, `22`, `1-10,22,54`: whole numbers and ranges, comma-separated, as knobs that select
 * problems or tasks take them. Returns the numbers ascending, each once; throws naming the
 * variable, its value and the part that is wrong.
 */
export function parseNumberRanges(name: string, value: string, smallest = 0): number[] {
  const numbers = new Set<number>()
  for (const part of value.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part)
    const first = Number(match?.[1])
    const last = match?.[2] === undefined ? first : Number(match[2])
    if (match === null)
      throw new Error(
        `${name}=${value}: "${part.trim()}" is not a number or a range. Write for example 1-100 or 1-10,22,54.`,
      )
    if (first < smallest) throw new Error(`${name}=${value}: numbers start at ${smallest}, not ${first}.`)
    if (last < first) throw new Error(`${name}=${value}: the range "${part.trim()}" runs backwards.`)
    for (let number = first; number <= last; number++) numbers.add(number)
  }
  return [...numbers].sort((a, b) => a - b)
}

/** A knob of number ranges (`1-10,22`), numbers from `smallest`; `parseNumberRanges` names the part that is wrong. */
export function numberRangesKnob(spec: {
  name: string
  readme: string
  default?: string
  defaultText?: string
  smallest?: number
}): Knob<number[] | undefined> {
  const smallest = spec.smallest ?? 0
  const { default: ranges, ...text } = spec
  return defineKnob(
    'list',
    { ...text, default: ranges === undefined ? undefined : parseNumberRanges(spec.name, ranges, smallest) },
    `numbers from ${smallest} and ranges, e.g. \`1-10,22\``,
    (raw) => parseNumberRanges(spec.name, raw, smallest),
    formatRanges,
  )
}

/** `[1, 2, 3, 7]` → `1-3,7`. */
function formatRanges(numbers: readonly number[]): string {
  const parts: string[] = []
  for (let index = 0; index < numbers.length;) {
    let end = index
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++
    parts.push(end === index ? String(numbers[index]) : `${numbers[index]}-${numbers[end]}`)
    index = end + 1
  }
  return parts.join(',')
}
