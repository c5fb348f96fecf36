/**
 * Git repositories of the instances, for reading files at a base commit and
 * checking that a patch applies there. From TESTBENCH_SWEBENCH_REPOS_DIR when
 * given (`<dir>/<owner>__<name>`, `<dir>/<owner>/<name>` or `<dir>/<name>`,
 * bare or not), else cloned once from GitHub into the cache.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface PatchCheck {
  applies: boolean
  /** What git said when it does not. */
  message: string
}

export class RepoCache {
  readonly #cloneRoot: string
  readonly #reposDir: string | undefined
  readonly #paths = new Map<string, Promise<string>>()

  constructor(cloneRoot: string, reposDir?: string) {
    this.#cloneRoot = cloneRoot
    this.#reposDir = reposDir
  }

  /** The local git directory of `owner/name`, cloned on first use when there is no repos dir. */
  repoPath(repo: string): Promise<string> {
    let path = this.#paths.get(repo)
    if (path === undefined) {
      path = this.#locate(repo)
      path.catch(() => this.#paths.delete(repo))
      this.#paths.set(repo, path)
    }
    return path
  }

  /** The text of `path` at `commit`, or undefined when the file does not exist there. */
  async readFile(repo: string, commit: string, path: string): Promise<string | undefined> {
    const gitDir = await this.repoPath(repo)
    try {
      return await git(gitDir, ['show', `${commit}:${path}`])
    } catch {
      return undefined
    }
  }

  /** The files under `directory` at `commit`. */
  async listFiles(repo: string, commit: string, directory: string): Promise<string[]> {
    const gitDir = await this.repoPath(repo)
    const output = await git(gitDir, [
      'ls-tree',
      '--name-only',
      `${commit}:${directory === '' ? '' : `${directory}/`}`,
    ]).catch(() => '')
    return output
      .split('\n')
      .filter((name) => name !== '')
      .map((name) => (directory === '' ? name : `${directory}/${name}`))
  }

  /** Whether `git apply` takes the patch at `commit` (checked on a scratch index, no checkout needed). */
  async checkPatch(repo: string, commit: string, patch: string): Promise<PatchCheck> {
    const gitDir = await this.repoPath(repo)
    const index = join(tmpdir(), `swebench-index-${randomBytes(6).toString('hex')}`)
    try {
      await git(gitDir, ['read-tree', commit], { GIT_INDEX_FILE: index })
      await git(gitDir, ['apply', '--cached', '--check', '-'], { GIT_INDEX_FILE: index }, patch)
      return { applies: true, message: '' }
    } catch (error) {
      return { applies: false, message: error instanceof Error ? error.message : String(error) }
    } finally {
      await rm(index, { force: true })
    }
  }

  async #locate(repo: string): Promise<string> {
    const [owner = '', name = ''] = repo.split('/')
    if (this.#reposDir !== undefined) {
      const candidates = [
        join(this.#reposDir, `${owner}__${name}`),
        join(this.#reposDir, owner, name),
        join(this.#reposDir, name),
      ]
      const found = candidates.find((path) => existsSync(path))
      if (found === undefined) {
        throw new Error(
          `TESTBENCH_SWEBENCH_REPOS_DIR=${this.#reposDir} holds no clone of ${repo} (looked for ${candidates.join(', ')}). Clone it there: git clone https://github.com/${repo}.git ${candidates[0]}`,
        )
      }
      return found
    }
    const target = join(this.#cloneRoot, `${owner}__${name}.git`)
    if (existsSync(target)) return target
    await mkdir(this.#cloneRoot, { recursive: true })
    const partial = `${target}.${process.pid}.part`
    const url = `https://github.com/${repo}.git`
    process.stderr.write(`swebench: cloning ${url} into ${target} (once; later runs reuse it)…\n`)
    try {
      await run('git', ['clone', '--bare', '--quiet', url, partial])
      await rename(partial, target).catch(async (error: unknown) => {
        // Another worker of the run (part files run at once) cloned it first.
        if (!existsSync(target)) throw error
        await rm(partial, { recursive: true, force: true })
      })
    } catch (error) {
      await rm(partial, { recursive: true, force: true })
      throw new Error(
        `Could not clone ${url} (${error instanceof Error ? error.message.trim() : String(error)}). ` +
          `Offline, put clones in a directory and set TESTBENCH_SWEBENCH_REPOS_DIR, or set TESTBENCH_SWEBENCH_CONTEXT=none.`,
      )
    }
    return target
  }
}

function git(gitDir: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<string> {
  return run('git', ['-C', gitDir, ...args], env, input)
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')}: ${stderr.trim() || error.message}`))
        else resolve(stdout)
      },
    )
    if (input !== undefined) child.stdin?.end(input)
  })
}
