/** What PE-Bench needs to know about each language: its name in scores, how its program runs, and how a program prints. */

export const LANGUAGE_IDS = ['python', 'java', 'rust', 'clojure', 'javascript', 'go', 'c', 'cpp'] as const
export type LanguageId = (typeof LANGUAGE_IDS)[number]

export interface Language {
  id: LanguageId
  /** As in the score name: PE-Bench-<name>-100. */
  name: string
  /** Fence tags a model may write for it; also the first lines `dropLanguageTagLine` removes. */
  tags: readonly string[]
  /** The prompt's sentence about how the program is compiled and run. */
  howItRuns: string
  /** The prompt's rule for printing the answer. */
  printWith: string
  /** A program printing 5050, the sum of 1..100: the prompt's example. */
  example: string
  /** A program that prints `answer` (a string literal is valid in every language here): what MODEL=reference replies. */
  printing(answer: string): string
}

export const LANGUAGES: Record<LanguageId, Language> = {
  python: {
    id: 'python',
    name: 'Python',
    tags: ['python', 'python3', 'py'],
    howItRuns: 'Your program is run as a standalone script with `python3 main.py`.',
    printWith: '`print(...)`',
    example: 'print(sum(range(1, 101)))',
    printing: (answer) => `print(${JSON.stringify(answer)})`,
  },
  java: {
    id: 'java',
    name: 'Java',
    tags: ['java'],
    howItRuns:
      'Your program is compiled with `javac` and run with `java`: write one `public` class (for example `Main`) with a `public static void main(String[] args)` method, and put everything inside that class.',
    printWith: '`System.out.println(...)`',
    example: [
      'public class Main {',
      '    public static void main(String[] args) {',
      '        long sum = 0;',
      '        for (int i = 1; i <= 100; i++) sum += i;',
      '        System.out.println(sum);',
      '    }',
      '}',
    ].join('\n'),
    printing: (answer) =>
      [
        'public class Main {',
        '    public static void main(String[] args) {',
        `        System.out.println(${JSON.stringify(answer)});`,
        '    }',
        '}',
      ].join('\n'),
  },
  rust: {
    id: 'rust',
    name: 'Rust',
    tags: ['rust', 'rs'],
    howItRuns:
      'Your program is compiled with `rustc` as a single file with a `fn main()` and only the standard library (no external crates).',
    printWith: '`println!("{}", value)`',
    example: ['fn main() {', '    let sum: i64 = (1..=100).sum();', '    println!("{}", sum);', '}'].join('\n'),
    printing: (answer) => ['fn main() {', `    println!("{}", ${JSON.stringify(answer)});`, '}'].join('\n'),
  },
  clojure: {
    id: 'clojure',
    name: 'Clojure',
    tags: ['clojure', 'clj'],
    howItRuns:
      'Your program is run as a script with `clojure main.clj`: no `(ns ...)` declaration and no `-main` function; define helpers with `defn` if you like, and call them at the top level.',
    printWith: '`(println ...)`',
    example: '(println (reduce + (range 1 101)))',
    printing: (answer) => `(println ${JSON.stringify(answer)})`,
  },
  javascript: {
    id: 'javascript',
    name: 'JavaScript',
    tags: ['javascript', 'js', 'node'],
    howItRuns: 'Your program is run as a standalone script with `node main.js`.',
    printWith: '`console.log(...)`',
    example: 'let sum = 0\nfor (let i = 1; i <= 100; i++) sum += i\nconsole.log(sum)',
    printing: (answer) => `console.log(${JSON.stringify(answer)})`,
  },
  go: {
    id: 'go',
    name: 'Go',
    tags: ['go', 'golang'],
    howItRuns:
      'Your program is built with `go build` as a single file in `package main` with a `func main()`, using only the standard library.',
    printWith: '`fmt.Println(...)`',
    example: [
      'package main',
      '',
      'import "fmt"',
      '',
      'func main() {',
      '\tsum := 0',
      '\tfor i := 1; i <= 100; i++ {',
      '\t\tsum += i',
      '\t}',
      '\tfmt.Println(sum)',
      '}',
    ].join('\n'),
    printing: (answer) =>
      ['package main', '', 'import "fmt"', '', 'func main() {', `\tfmt.Println(${JSON.stringify(answer)})`, '}'].join(
        '\n',
      ),
  },
  c: {
    id: 'c',
    name: 'C',
    tags: ['c'],
    howItRuns:
      'Your program is compiled with `gcc -O2` as a single file with an `int main(void)`, using only the C standard library (the math library is linked).',
    printWith: '`printf("...\\n", ...)`',
    example: [
      '#include <stdio.h>',
      '',
      'int main(void) {',
      '    long sum = 0;',
      '    for (int i = 1; i <= 100; i++) sum += i;',
      '    printf("%ld\\n", sum);',
      '    return 0;',
      '}',
    ].join('\n'),
    printing: (answer) =>
      ['#include <stdio.h>', '', 'int main(void) {', `    puts(${JSON.stringify(answer)});`, '    return 0;', '}'].join(
        '\n',
      ),
  },
  cpp: {
    id: 'cpp',
    name: 'C++',
    tags: ['cpp', 'c++', 'cxx'],
    howItRuns:
      'Your program is compiled with `g++ -O2` as a single file with an `int main()`, using only the C++ standard library.',
    printWith: '`std::cout << ... << std::endl`',
    example: [
      '#include <iostream>',
      '',
      'int main() {',
      '    long sum = 0;',
      '    for (int i = 1; i <= 100; i++) sum += i;',
      '    std::cout << sum << std::endl;',
      '}',
    ].join('\n'),
    printing: (answer) =>
      ['#include <iostream>', '', 'int main() {', `    std::cout << ${JSON.stringify(answer)} << std::endl;`, '}'].join(
        '\n',
      ),
  },
}
