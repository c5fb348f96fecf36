// The programs bench:euler hands to both pipelines: for each problem and language, a program that runs a sieve of
// Eratosthenes up to `limit` and prints the problem's answer as (answer − π(limit)) + π(limit), π counted by the
// sieve. They are not solutions of the problems: they are workloads that print the right answer without its digits
// in the source, because upstream's execute.py counts a program whose source contains the answer as solved without
// running it. The sieve is real work the compiler cannot fold away, so `limit` sets what a program costs to run.

export const SIEVE_LANGUAGES = ['python', 'java', 'rust', 'clojure'] as const
export type SieveLanguage = (typeof SIEVE_LANGUAGES)[number]

/** Upstream's file extension per language (execute.py's get_extension). */
export const EXTENSIONS: Record<SieveLanguage, string> = { python: 'py', java: 'java', rust: 'rs', clojure: 'clj' }

const primeCounts = new Map<number, number>()

/** π(limit): how many primes are below `limit`. */
export function primesBelow(limit: number): number {
  const known = primeCounts.get(limit)
  if (known !== undefined) return known
  const composite = new Uint8Array(limit)
  let count = 0
  for (let i = 2; i < limit; i++) {
    if (composite[i] === 1) continue
    count++
    for (let j = i * i; j < limit; j += i) composite[j] = 1
  }
  primeCounts.set(limit, count)
  return count
}

const SOURCES: Record<SieveLanguage, (limit: number, rest: bigint) => string> = {
  python: (limit, rest) =>
    [
      `n = ${limit}`,
      'sieve = bytearray([1]) * n',
      'sieve[0] = sieve[1] = 0',
      'i = 2',
      'while i * i < n:',
      '    if sieve[i]:',
      '        sieve[i * i::i] = bytearray(len(range(i * i, n, i)))',
      '    i += 1',
      `print(${rest} + sum(sieve))`,
    ].join('\n'),
  java: (limit, rest) =>
    [
      'public class Main {',
      '    public static void main(String[] args) {',
      `        int n = ${limit};`,
      '        boolean[] composite = new boolean[n];',
      '        long count = 0;',
      '        for (int i = 2; i < n; i++) {',
      '            if (composite[i]) continue;',
      '            count++;',
      '            for (long j = (long) i * i; j < n; j += i) composite[(int) j] = true;',
      '        }',
      `        System.out.println(${rest}L + count);`,
      '    }',
      '}',
    ].join('\n'),
  rust: (limit, rest) =>
    [
      'fn main() {',
      `    let n: usize = ${limit};`,
      '    let mut composite = vec![false; n];',
      '    let mut count: i64 = 0;',
      '    for i in 2..n {',
      '        if composite[i] {',
      '            continue;',
      '        }',
      '        count += 1;',
      '        let mut j = i * i;',
      '        while j < n {',
      '            composite[j] = true;',
      '            j += i;',
      '        }',
      '    }',
      `    println!("{}", ${rest}i64 + count);`,
      '}',
    ].join('\n'),
  clojure: (limit, rest) =>
    [
      `(def n ${limit})`,
      '(def ^booleans composite (boolean-array n))',
      '(defn prime-count []',
      '  (loop [i 2 count 0]',
      '    (if (< i n)',
      '      (if (aget ^booleans composite i)',
      '        (recur (inc i) count)',
      '        (do (loop [j (* i i)]',
      '              (when (< j n)',
      '                (aset ^booleans composite j true)',
      '                (recur (+ j i))))',
      '            (recur (inc i) (inc count))))',
      '      count)))',
      `(println (+ ${rest} (prime-count)))`,
    ].join('\n'),
}

/**
 * The program for `answer` in `language`, sieving up to about `limit`: the first of limit, limit + 1237, limit + 2·1237… whose source does
 * not contain the answer once commas are removed (upstream's skip rule), so that both pipelines really run it.
 */
export function sieveProgram(language: SieveLanguage, answer: string, limit: number): string {
  if (!/^-?\d+$/.test(answer)) throw new Error(`bench:euler: the answer ${answer} is not an integer.`)
  for (let step = 0; step < 200; step++) {
    const candidate = limit + step * 1237
    const source = SOURCES[language](candidate, BigInt(answer) - BigInt(primesBelow(candidate)))
    if (!source.replaceAll(',', '').includes(answer)) return source
  }
  throw new Error(`bench:euler: every ${language} program near limit ${limit} contains the answer ${answer}.`)
}
