/**
 * The screen of an agent's commands for those that look for the repository's history beyond its working tree: where
 * an image still holds later commits, they read the fix instead of writing it (SWE-bench#465; mini-swe-agent#787
 * counted 21 of 100 SWE-bench Pro tasks). The agent's container holds no future (no-future-image.ts), so such a
 * command finds nothing there; it is counted all the same, so a reader sees who tried, and a replayed trajectory made
 * against a leaky image elsewhere is screened the same way. A command is split into its simple commands (`;`, `&&`,
 * `|`, `$(…)`, `bash -c '…'`), and each `git` command is read by its subcommand and arguments. What counts:
 * - every ref's history: `--all`, `--branches`, `--tags`, `--remotes`, `--glob`, `--reflog`, `-g` (log, rev-list…);
 * - reflogs, stashes, notes, remotes: `git reflog`, `git stash list`, `git notes`, `git remote`, `HEAD@{1}`, `origin/…`;
 * - objects by themselves: `git fsck`, `git cat-file`, `git for-each-ref`, `git show-ref`, `git verify-pack`…;
 * - another copy of the history: `git fetch`, `git pull`, `git clone`, `git ls-remote`, a download from GitHub;
 * - a hash that is not the base commit's (`git show 1a2b3c4`, `git diff 1a2b3c4`…), and the refs listed by
 *   `git tag` or `git branch -a`/`-r`/`--contains`;
 * - the `.git` directory read by another command (`cat .git/packed-refs`, `find .git`, `ls .git/refs`).
 * Plain `git log`, `git show`, `git diff`, `git blame`, `git status` and a pickaxe (`-S`, `-G`) over HEAD's past do not.
 */

/** A command that probed, and why it counts. */
export interface HistoryProbe {
  command: string
  why: string
}

/** Each command that counts, once, in the order run. */
export function screenCommands(commands: readonly string[], baseCommit: string): HistoryProbe[] {
  return commands.flatMap((command) => {
    const why = probeReasons(command, baseCommit)
    return why.length === 0 ? [] : [{ command, why: [...new Set(why)].join('; ') }]
  })
}

/** Why a command reads history beyond the working tree, one reason per part that does; empty when it does not. */
export function probeReasons(command: string, baseCommit: string): string[] {
  return simpleCommands(command).flatMap((words) => wordsReasons(words, baseCommit.toLowerCase()))
}

const EVERY_REF =
  /^--(all|branches|tags|remotes|glob|reflog|walk-reflogs|alternate-refs|indexed-objects|exclude|notes|show-notes)(=|$)|^-g$/
const ALWAYS: Record<string, string> = {
  reflog: 'reads the reflog',
  fsck: 'lists objects by themselves',
  'cat-file': 'reads objects by themselves',
  'for-each-ref': 'lists every ref',
  'show-ref': 'lists every ref',
  'ls-remote': 'lists another copy’s refs',
  fetch: 'fetches history',
  pull: 'fetches history',
  clone: 'clones another copy of the history',
  notes: 'reads notes',
  remote: 'reads remotes',
  'verify-pack': 'lists packed objects',
  'show-index': 'lists packed objects',
  'unpack-objects': 'reads packed objects',
  'fast-export': 'exports every ref’s history',
  bundle: 'bundles history',
}
/** Subcommands whose non-option arguments are revisions (or paths, which are not hashes). */
const TAKES_REVISIONS = new Set([
  'log',
  'show',
  'diff',
  'diff-tree',
  'checkout',
  'switch',
  'restore',
  'cherry-pick',
  'format-patch',
  'rev-list',
  'rev-parse',
  'ls-tree',
  'archive',
  'grep',
  'blame',
  'merge',
  'rebase',
  'reset',
  'name-rev',
  'describe',
  'shortlog',
  'whatchanged',
  'show-branch',
  'read-tree',
  'merge-base',
])
const SPECIAL_HEADS = /^(FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|AUTO_MERGE|stash)$/
const OTHER_REFS = /^(refs\/(?!heads\/)|origin\/|upstream\/|remotes\/)/
const GIT_DIR_PATH = /(^|\/)\.git(\/|$)/
/** Global options of git that take a value as the next word. */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path'])
const PREFIXES = new Set(['sudo', 'command', 'env', 'nohup', 'time', 'exec', 'xargs', 'nice'])

function wordsReasons(words: readonly string[], base: string): string[] {
  let index = 0
  while (index < words.length) {
    const word = words[index] ?? ''
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || PREFIXES.has(word) || (word.startsWith('-') && index > 0)) index++
    else if (word === 'timeout' && index + 1 < words.length) index += 2
    else break
  }
  const [program = '', ...args] = words.slice(index)
  const name = program.slice(program.lastIndexOf('/') + 1)
  if ((name === 'bash' || name === 'sh') && args.includes('-c'))
    return probeReasons(args[args.indexOf('-c') + 1] ?? '', base)
  if (name === 'eval') return probeReasons(args.join(' '), base)
  if (name === 'git') return gitReasons(args, base)
  const reasons: string[] = []
  if (args.some((arg) => GIT_DIR_PATH.test(arg))) reasons.push(`reads the .git directory with ${name}`)
  if ((name === 'curl' || name === 'wget') && args.some((arg) => /github(usercontent)?\.com|gitlab\.com/.test(arg)))
    reasons.push('downloads from the project’s host')
  return reasons
}

function gitReasons(args: readonly string[], base: string): string[] {
  let index = 0
  while (index < args.length && (args[index] ?? '').startsWith('-'))
    index += GIT_OPTIONS_WITH_VALUE.has(args[index] ?? '') ? 2 : 1
  const sub = args[index]
  if (sub === undefined) return []
  const rest = args.slice(index + 1)
  const dashes = rest.indexOf('--')
  const before = dashes < 0 ? rest : rest.slice(0, dashes)
  const options = before.filter((arg) => arg.startsWith('-'))
  const operands = before.filter((arg) => !arg.startsWith('-'))
  const reasons: string[] = []
  const always = ALWAYS[sub]
  if (always !== undefined) reasons.push(`git ${sub} ${always}`)
  if (sub === 'stash' && (operands[0] === 'list' || operands[0] === 'show'))
    reasons.push(`git stash ${operands[0]} reads stashes`)
  if (
    sub === 'tag' &&
    (operands.length === 0 || options.some((option) => /^(-l|--list|--contains|--points-at|-n\d*)/.test(option)))
  )
    reasons.push('git tag lists tags')
  if (
    sub === 'branch' &&
    options.some((option) => /^(-a|-r|--all|--remotes|--contains|--merged|--no-merged)/.test(option))
  )
    reasons.push('git branch lists other branches')
  const everyRef = options.find((option) => EVERY_REF.test(option))
  if (everyRef !== undefined && always === undefined) reasons.push(`git ${sub} ${everyRef} reaches every ref`)
  if (TAKES_REVISIONS.has(sub)) for (const operand of operands) reasons.push(...revisionReasons(operand, base))
  return reasons
}

function revisionReasons(operand: string, base: string): string[] {
  const reasons: string[] = []
  for (const part of operand.split(/\.\.\.?/)) {
    const revision = part.replace(/^\^/, '').replace(/:.*$/, '')
    if (revision === '') continue
    if (revision.includes('@{') && !/@\{(u|upstream|push)\}/.test(revision))
      reasons.push(`${revision} reads the reflog`)
    const name = revision.replace(/(\^\{[^}]*\}|[~^]\d*)+$/, '')
    if (/^[0-9a-f]{7,40}$/i.test(name) && !base.startsWith(name.toLowerCase()))
      reasons.push(`${name} is not the base commit`)
    else if (SPECIAL_HEADS.test(name) || OTHER_REFS.test(name)) reasons.push(`${name} is another ref`)
  }
  return reasons
}

/** The simple commands of a shell command, as words with quotes taken off; `$(…)` and backticks are their own. */
export function simpleCommands(command: string): string[][] {
  const commands: string[][] = []
  let words: string[] = []
  let word: string | undefined
  const endWord = () => {
    if (word !== undefined) words.push(word)
    word = undefined
  }
  const endCommand = () => {
    endWord()
    if (words.length > 0) commands.push(words)
    words = []
  }
  for (let at = 0; at < command.length; at++) {
    const char = command[at] ?? ''
    if (char === "'") {
      const close = command.indexOf("'", at + 1)
      const end = close < 0 ? command.length : close
      word = (word ?? '') + command.slice(at + 1, end)
      at = end
    } else if (char === '"') {
      let text = ''
      at++
      while (at < command.length && command[at] !== '"') {
        if (command[at] === '\\' && at + 1 < command.length) at++
        else if (command[at] === '$' && command[at + 1] === '(') {
          const close = matchingParen(command, at + 1)
          commands.push(...simpleCommands(command.slice(at + 2, close)))
        }
        text += command[at] ?? ''
        at++
      }
      word = (word ?? '') + text
    } else if (char === '\\' && at + 1 < command.length) {
      at++
      if (command[at] !== '\n') word = (word ?? '') + (command[at] ?? '')
    } else if (char === '$' && command[at + 1] === '(') {
      const close = matchingParen(command, at + 1)
      commands.push(...simpleCommands(command.slice(at + 2, close)))
      word = (word ?? '') + '$()'
      at = close
    } else if (char === '`') {
      const close = command.indexOf('`', at + 1)
      const end = close < 0 ? command.length : close
      commands.push(...simpleCommands(command.slice(at + 1, end)))
      at = end
    } else if (/[;&|()\n]/.test(char)) endCommand()
    else if (/\s/.test(char)) endWord()
    else if (char === '#' && word === undefined) {
      const newline = command.indexOf('\n', at)
      at = newline < 0 ? command.length : newline - 1
    } else word = (word ?? '') + char
  }
  endCommand()
  return commands
}

/** The index of the `)` that closes the `(` at `open`, or the command's end. */
function matchingParen(command: string, open: number): number {
  let depth = 0
  for (let at = open; at < command.length; at++) {
    if (command[at] === '(') depth++
    else if (command[at] === ')' && --depth === 0) return at
  }
  return command.length
}
