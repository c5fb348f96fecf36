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
    if (match === null) throw new Error(`${name}=${value}: "${part.trim()}" is not a number or a range. Write for example 1-100 or 1-10,22,54.`)
    if (first < smallest) throw new Error(`${name}=${value}: numbers start at ${smallest}, not ${first}.`)
    if (last < first) throw new Error(`${name}=${value}: the range "${part.trim()}" runs backwards.`)
    for (let number = first; number <= last; number++) numbers.add(number)
  }
  return [...numbers].sort((a, b) => a - b)
}
