/** The oracle context and the apply check, from a clone in TESTBENCH_SWEBENCH_REPOS_DIR (here: the tinycalc fixture committed as its image does). */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { contextFiles, swebenchPrompt } from '../../../suites/swebench/prompt.ts'
import { RepoCache } from '../../../suites/swebench/repo-cache.ts'
import { FIXTURE_DIR, fixturePatch, syntheticInstance } from './synthetic-instance.ts'

const COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'testbench',
  GIT_AUTHOR_EMAIL: 'testbench@example.invalid',
  GIT_COMMITTER_NAME: 'testbench',
  GIT_COMMITTER_EMAIL: 'testbench@example.invalid',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
}

let repos: RepoCache

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'swebench-repos-'))
  const clone = join(dir, 'testbench__tinycalc')
  cpSync(new URL('repo', FIXTURE_DIR), clone, { recursive: true })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: clone, env: { ...process.env, ...COMMIT_ENV } })
  git('init', '-q', '-b', 'main', '.')
  git('add', '-A')
  git('commit', '-q', '-m', 'tinycalc at the base commit')
  repos = new RepoCache(join(dir, 'unused-clone-root'), dir)
})

describe('oracle context', () => {
  test('the files the gold patch touches, at the base commit, numbered in the prompt', async () => {
    const instance = await syntheticInstance()
    const files = await contextFiles(instance, repos, 'oracle', 100_000)
    expect(files.map((file) => file.path)).toEqual(['tinycalc/stats.py'])
    expect(files[0]?.text).toContain('    return ordered[middle]\n')
    const prompt = swebenchPrompt(instance, files)
    expect(prompt).toContain('median() is wrong for an even number of values')
    expect(prompt).toContain('[start of tinycalc/stats.py]\n1 def median(values):\n')
    expect(prompt).toContain('7     return ordered[middle]\n[end of tinycalc/stats.py]')
  })

  test('oracle+dir adds the neighbouring Python files; none gives no code', async () => {
    const instance = await syntheticInstance()
    expect((await contextFiles(instance, repos, 'oracle+dir', 100_000)).map((file) => file.path)).toEqual([
      'tinycalc/stats.py',
      'tinycalc/__init__.py',
    ])
    expect(await contextFiles(instance, repos, 'none', 100_000)).toEqual([])
    expect(swebenchPrompt(instance, [])).not.toContain('<code>')
  })

  test('the apply check takes the gold patch and refuses one whose context is not there', async () => {
    const instance = await syntheticInstance()
    expect(await repos.checkPatch(instance.repo, instance.baseCommit, fixturePatch('gold'))).toEqual({
      applies: true,
      message: '',
    })
    const malformed = await repos.checkPatch(instance.repo, instance.baseCommit, fixturePatch('malformed'))
    expect(malformed.applies).toBe(false)
    expect(malformed.message).toMatch(/patch failed|does not apply/)
  })

  test('a repository missing from the repos dir is an error that says how to get it', async () => {
    await expect(repos.repoPath('octo/cat')).rejects.toThrow(
      /holds no clone of octo\/cat .*git clone https:\/\/github.com\/octo\/cat.git/,
    )
  })
})
