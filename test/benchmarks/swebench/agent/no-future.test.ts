/**
 * The agent's container holds no future (SWE-bench#465). A leaky image of the synthetic instance is built here: its
 * /testbed is at the base commit on main, and its repository also holds the fix on a later commit (a branch, a light
 * and an annotated tag, a remote-tracking ref, FETCH_HEAD, notes, reflog entries, a stash, a dangling commit, a loose
 * blob, a `.keep` pack). An agent that reads the fix out of it is resolved in the leaky image itself; in the image the
 * suite makes from it, every way it tries finds nothing and it is not resolved, while an agent that fixes the code
 * itself still is. Replayed through the suite, both runs are screened: the record, the JSON report and the summary
 * name the probes. Needs a container engine and the image .ci/swebench-setup.sh builds.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { EPISODE_LIMITS, runEpisode } from '../../../../suites/swebench/agent/agent-episode.ts'
import type { AgentRun } from '../../../../suites/swebench/agent/agent-loop.ts'
import { connectEngine } from '../../../../suites/swebench/evaluation/container-engine.ts'
import { demultiplex } from '../../../../suites/swebench/evaluation/container-run.ts'
import { EpisodeContainer } from '../../../../suites/swebench/agent/episode-container.ts'
import { evaluatePatch } from '../../../../suites/swebench/evaluation/evaluate.ts'
import { screenCommands } from '../../../../suites/swebench/agent/history-probes.ts'
import type { SwebenchInstance } from '../../../../suites/swebench/instance.ts'
import { judgePatch, type Judges } from '../../../../suites/swebench/patches/judge-reply.ts'
import { TEXT_CONFIG } from '../../../../suites/swebench/agent/mini-swe-agent-config.ts'
import {
  NoFutureImages,
  noFutureImageName,
  type NoFutureBuild,
} from '../../../../suites/swebench/agent/no-future-image.ts'
import { trajectoryJson } from '../../../../suites/swebench/agent/trajectory.ts'
import type { RunReport } from '../../../../reporters/run-report.ts'
import { itemsOfHtmlReport } from '../../../support/html-report-data.ts'
import { skipWithoutTool } from '../../../support/required-tool.ts'
import { runSwebenchSuite } from '../run-suite.ts'
import { FIX_MEDIAN, fenced, MAKE_PATCH, scriptedModel, SUBMIT } from '../scripted-agent.ts'
import {
  ENGINE_AND_IMAGE,
  SYNTHETIC_IMAGE,
  SYNTHETIC_SPEC,
  fixturePatch,
  syntheticImageUnavailable,
  syntheticInstance,
  syntheticRow,
} from '../synthetic-instance.ts'

const docker = connectEngine()
const unavailable = await syntheticImageUnavailable(docker)

/** Run in the synthetic image's /testbed with the gold patch as $1: leaves the fix everywhere but the working tree. */
const LEAK_SCRIPT = String.raw`
set -eu
cd /testbed
export GIT_AUTHOR_NAME=future GIT_AUTHOR_EMAIL=future@example.invalid GIT_COMMITTER_NAME=future GIT_COMMITTER_EMAIL=future@example.invalid
export GIT_AUTHOR_DATE=2024-06-01T00:00:00Z GIT_COMMITTER_DATE=2024-06-01T00:00:00Z
fix="$1"
base=$(git rev-parse HEAD)
git checkout -q -b fix
printf '%s\n' "$fix" | git apply -
git commit -q -am 'Fix median of an even count (the future)'
future=$(git rev-parse HEAD)
git tag v2-light
git tag -a v2 -m 'Release with the median fix'
git notes add -m "the fix is $future" "$base"
git checkout -q main
git reset -q --hard fix
git reset -q --hard "$base"
git remote add origin https://example.invalid/tinycalc.git
git update-ref refs/remotes/origin/main "$future"
printf '%s\t\tbranch main of https://example.invalid/tinycalc\n' "$future" >.git/FETCH_HEAD
git checkout -q --detach
printf '%s\n' "$fix" | git apply -
git commit -q -am 'The fix, seen only in the reflog'
reflog=$(git rev-parse HEAD)
git checkout -q main
git repack -a -d -q
for pack in .git/objects/pack/*.pack; do touch "$(dirname "$pack")/$(basename "$pack" .pack).keep"; done
printf '%s\n' "$fix" | git apply -
git stash push -q -m 'the fix, stashed'
stash=$(git rev-parse refs/stash)
dangling=$(git commit-tree "$future^{tree}" -p "$base" -m 'The fix, dangling')
blob=$(printf 'the answer: (ordered[middle - 1] + ordered[middle]) / 2\n' | git hash-object -w --stdin)
printf 'set up by the environment\n' >env-setup.txt
test "$(git rev-parse HEAD)" = "$base" && test "$(git symbolic-ref HEAD)" = refs/heads/main && test -z "$(git status --porcelain --untracked-files=no)"
echo "future=$future reflog=$reflog stash=$stash dangling=$dangling blob=$blob tag=$(git rev-parse refs/tags/v2) note=$(git rev-parse refs/notes/commits)"
`

/** What the fixed line reads: no output in the scrubbed container may show it. */
const FIX_TEXT = 'ordered[middle - 1]'
const IMAGE_REPO = `localhost/testbench-leaky-${process.pid}-${Date.now().toString(36)}`
const leakyImage = (id: string) => `${IMAGE_REPO}/sweb.eval.x86_64.${id.replace('__', '_1776_')}:latest`
const LEAKY = leakyImage('testbench__tinycalc-1')
const LEAKY_TWO = leakyImage('testbench__tinycalc-2')

let instance: SwebenchInstance
/** The hashes of the future the leak script made. */
let secrets: Record<string, string> = {}
const temporary: string[] = []

const judges = (image: string): Judges => ({
  evaluate: (judged, patch) =>
    evaluatePatch(docker, judged, patch, {
      image,
      spec: SYNTHETIC_SPEC,
      timeoutMs: 60_000,
      network: 'none',
      memoryBytes: 512 * 1024 * 1024,
    }),
})

/** Runs `script` in a new container of `image`; with `commitAs`, commits the container as that image. */
async function runScript(image: string, script: string, args: string[], commitAs?: string): Promise<string> {
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: [],
    Cmd: ['bash', '-c', script, 'script', ...args],
    HostConfig: { NetworkMode: 'none' },
  })
  try {
    await container.start()
    const { StatusCode } = (await container.wait()) as { StatusCode: number }
    const log = demultiplex(await container.logs({ stdout: true, stderr: true, follow: false }))
    if (StatusCode !== 0) throw new Error(`the script ended with ${StatusCode}: ${log}`)
    if (commitAs !== undefined) {
      const colon = commitAs.lastIndexOf(':')
      await container.commit({ repo: commitAs.slice(0, colon), tag: commitAs.slice(colon + 1) })
    }
    return log
  } finally {
    await container.remove({ force: true }).catch(() => undefined)
  }
}

async function removeImage(image: string): Promise<void> {
  await docker
    .getImage(image)
    .remove({ force: true })
    .catch(() => undefined)
}

async function imageExists(image: string): Promise<boolean> {
  return docker
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false,
    )
}

function textEpisode(image: string, commands: readonly string[]): Promise<AgentRun> {
  return runEpisode(docker, {
    config: TEXT_CONFIG,
    task: instance.problemStatement,
    image,
    limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024 },
    ask: scriptedModel(commands.map((command) => fenced(command))).ask,
    costOf: () => undefined,
    tokenLimit: 1_000_000,
  })
}

/** Every observation of the run, joined. */
function observations(run: AgentRun): string {
  return run.messages
    .filter((message) => message.role === 'user')
    .slice(1)
    .map((message) => message.content)
    .join('\n')
}

function commandsOf(run: AgentRun): string[] {
  return run.messages.flatMap((message) => {
    const actions = message.role === 'assistant' ? message.extra?.actions : undefined
    return Array.isArray(actions)
      ? actions.flatMap((action) =>
          typeof action === 'object' && action !== null && 'command' in action && typeof action.command === 'string'
            ? [action.command]
            : [],
        )
      : []
  })
}

/** Each way to read the future, then a patch made from what was found, submitted. */
function cheatingCommands(): string[] {
  const { future = '', reflog = '', stash = '', dangling = '', blob = '', tag = '' } = secrets
  return [
    'git log --all --oneline',
    'git branch -a && git tag',
    `git log --all -p -S '${FIX_TEXT}'`,
    'git show fix:tinycalc/stats.py v2:tinycalc/stats.py v2-light:tinycalc/stats.py',
    'git show origin/main:tinycalc/stats.py',
    'git reflog -p | head -80',
    'git log -g --all -p | head -80',
    'git stash list && git stash show -p stash@{0}',
    'git notes show',
    'cat .git/FETCH_HEAD .git/ORIG_HEAD .git/packed-refs; ls .git/refs/*',
    'git fsck --lost-found --unreachable --no-reflogs; cat .git/lost-found/*/* 2>/dev/null',
    `git cat-file -p ${blob}; git cat-file -p ${tag}`,
    `git show ${future} ${reflog} ${stash} ${dangling}`,
    'git rev-list --all --objects | wc -l; git count-objects -v',
    `for o in $(git cat-file --batch-all-objects --batch-check='%(objectname)'); do git cat-file -p $o; done | grep -c 'middle - 1'`,
    'git fetch origin; git clone https://example.invalid/tinycalc.git /tmp/t',
    `git diff HEAD ${future} -- tinycalc/stats.py > patch.txt || git stash show -p > patch.txt || true`,
    SUBMIT,
  ]
}

const FIX_ITSELF = [FIX_MEDIAN, MAKE_PATCH, SUBMIT]
/** Looks first (and finds nothing past the base), then fixes the code itself. */
const PROBE_THEN_FIX = ['git log --all --oneline', 'git reflog', ...FIX_ITSELF]

describe('the agent works in an image without its repository’s future', () => {
  beforeAll(async () => {
    if (unavailable !== undefined) return
    instance = await syntheticInstance()
    const log = await runScript(SYNTHETIC_IMAGE, LEAK_SCRIPT, [fixturePatch('gold').trimEnd()], LEAKY)
    const line = log.trim().split('\n').at(-1) ?? ''
    secrets = Object.fromEntries(line.split(' ').map((pair) => pair.split('=') as [string, string]))
    await docker.getImage(LEAKY).tag({ repo: LEAKY_TWO.slice(0, LEAKY_TWO.lastIndexOf(':')), tag: 'latest' })
  }, 300_000)
  afterAll(async () => {
    for (const image of [noFutureImageName(LEAKY), noFutureImageName(LEAKY_TWO), LEAKY_TWO, LEAKY])
      await removeImage(image)
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
  }, 120_000)
  beforeEach((context) => {
    skipWithoutTool(context, ENGINE_AND_IMAGE, unavailable)
  })

  test(
    'in the leaky image itself, an agent that reads the future is resolved (what the scrub takes away)',
    { timeout: 180_000 },
    async () => {
      expect(Object.keys(secrets)).toEqual(['future', 'reflog', 'stash', 'dangling', 'blob', 'tag', 'note'])
      const run = await textEpisode(LEAKY, cheatingCommands())
      expect(observations(run)).toContain(FIX_TEXT)
      expect(observations(run)).toContain(secrets.future)
      const verdict = await judgePatch(instance, run.submission, judges(LEAKY))
      expect(verdict.status, verdict.evaluation?.log).toBe('resolved')
    },
  )

  test(
    'in the image made from it: only the base commit and its past, the working tree as it was, nothing found, not resolved',
    { timeout: 300_000 },
    async () => {
      const images = new NoFutureImages(docker, false)
      let made: NoFutureBuild | undefined
      let shared: NoFutureBuild | undefined
      const cheating = await images.using(LEAKY, instance.baseCommit, async (build) => {
        made = build
        // A second episode of the image while the first holds it shares the build.
        await images.using(LEAKY, instance.baseCommit, async (again) => {
          shared = again
        })
        expect(await imageExists(build.image)).toBe(true)
        const container = await EpisodeContainer.start(docker, {
          image: build.image,
          limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024 },
        })
        try {
          const inspect = await container.run({
            command: [
              "git for-each-ref --format='%(refname) %(objectname)'",
              'git symbolic-ref HEAD',
              "git cat-file --batch-all-objects --batch-check='%(objectname)' | sort > /tmp/all",
              "git rev-list --objects HEAD | cut -d' ' -f1 | sort > /tmp/reached",
              'echo "unreached: $(comm -23 /tmp/all /tmp/reached | wc -l)"',
              'ls .git',
              'git status --short',
              'git log --format=%H',
              "git blame --porcelain -L 7,7 tinycalc/stats.py | head -1 | cut -d' ' -f1",
              'echo "reflog: $(git reflog | wc -l) stashes: $(git stash list | wc -l) remotes: $(git remote | wc -l)"',
            ].join(' && '),
            cwd: '/testbed',
            env: {},
            timeoutSeconds: 60,
          })
          expect(inspect.returncode, inspect.output).toBe(0)
          expect(inspect.output.split('\n')).toEqual([
            `refs/heads/main ${instance.baseCommit}`,
            'refs/heads/main',
            'unreached: 0',
            'HEAD',
            'branches',
            'config',
            'description',
            'hooks',
            'index',
            'info',
            'objects',
            'refs',
            '?? env-setup.txt',
            instance.baseCommit,
            instance.baseCommit,
            'reflog: 0 stashes: 0 remotes: 0',
            '',
          ])
        } finally {
          await container.close()
        }
        return textEpisode(build.image, cheatingCommands())
      })
      expect(made?.buildMs).toBeGreaterThan(0)
      expect(made?.summary).toBe(`no future: main at ${instance.baseCommit}, 1 commits`)
      expect(shared).toBe(made)
      // After its last episode the derived image is removed (TESTBENCH_SWEBENCH_KEEP_IMAGES=0).
      expect(await imageExists(noFutureImageName(LEAKY))).toBe(false)

      // A command that names a hash is told it is a bad object: no other line may show one.
      const seen = observations(cheating)
        .split('\n')
        .filter((line) => !/^(fatal|error): /.test(line))
        .join('\n')
      expect(seen).not.toContain(FIX_TEXT)
      for (const [what, hash] of Object.entries(secrets)) expect(seen, what).not.toContain(hash.slice(0, 7))
      expect(cheating.exitStatus).toBe('Submitted')
      const verdict = await judgePatch(instance, cheating.submission, judges(LEAKY))
      expect(verdict.status).not.toBe('resolved')
      expect(screenCommands(commandsOf(cheating), instance.baseCommit)).toHaveLength(cheatingCommands().length - 2)

      const honest = await images.using(LEAKY, instance.baseCommit, (build) => textEpisode(build.image, FIX_ITSELF))
      expect(screenCommands(commandsOf(honest), instance.baseCommit)).toEqual([])
      const honestVerdict = await judgePatch(instance, honest.submission, judges(LEAKY))
      expect(honestVerdict.status, honestVerdict.evaluation?.log).toBe('resolved')
    },
  )

  test(
    'kept (TESTBENCH_SWEBENCH_KEEP_IMAGES=1), the derived image is used again by a later run; an image without a future is used as it is',
    { timeout: 180_000 },
    async () => {
      const first = await new NoFutureImages(docker, true).using(LEAKY, instance.baseCommit, async (build) => build)
      const second = await new NoFutureImages(docker, true).using(LEAKY, instance.baseCommit, async (build) => build)
      expect(first.buildMs).toBeGreaterThan(0)
      expect(second).toEqual({
        image: first.image,
        id: first.id,
        buildMs: 0,
        summary: 'made by an earlier run',
        derived: true,
      })
      // An image that already holds no future (SWE-bench's since its PR #471) is checked and used as it is.
      const pristine = await new NoFutureImages(docker, false).using(
        first.image,
        instance.baseCommit,
        async (build) => build,
      )
      expect(pristine).toMatchObject({
        image: first.image,
        id: first.id,
        derived: false,
        summary: `already without a future: main at ${instance.baseCommit}, 1 commits`,
      })
      expect(await imageExists(noFutureImageName(first.image))).toBe(false)
      expect(await imageExists(first.image)).toBe(true)
      await removeImage(first.image)
    },
  )

  test(
    'two runs at once: one removes the image the other found before its container started; the other makes it again',
    { timeout: 180_000 },
    async () => {
      const first = new NoFutureImages(docker, false)
      const second = new NoFutureImages(docker, false)
      let release = () => undefined as void
      let firstId = ''
      const firstRun = first.using(LEAKY, instance.baseCommit, (build) => {
        firstId = build.id
        return new Promise<void>((resolve) => (release = resolve))
      })
      while (firstId === '') await new Promise((resolve) => setTimeout(resolve, 50))
      const used: string[] = []
      await second.using(LEAKY, instance.baseCommit, async (build) => {
        used.push(build.id)
        if (used.length === 1) {
          // The first run ends its episode and removes the image before this one's container starts.
          release()
          await firstRun
        }
        const container = await EpisodeContainer.start(docker, {
          image: build.id,
          limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024 },
        })
        await container.close()
      })
      expect(used).toHaveLength(2)
      expect(used[0]).toBe(firstId)
      expect(used[1]).not.toBe(firstId)
      expect(await imageExists(noFutureImageName(LEAKY))).toBe(false)
    },
  )

  test(
    'an image whose /testbed is not at the base commit is not used: the instance fails as our error, before any command',
    { timeout: 120_000 },
    async () => {
      const other = '1'.repeat(40)
      await expect(new NoFutureImages(docker, false).using(LEAKY, other, async () => 'ran')).rejects.toThrow(
        `Could not take the future out of ${LEAKY}'s repository (exit 3): the base commit ${other} is not in /testbed's repository`,
      )
      await expect(
        new NoFutureImages(docker, false).using(LEAKY, secrets.future ?? '', async () => 'ran'),
      ).rejects.toThrow(`/testbed's HEAD is ${instance.baseCommit}, not the base commit ${secrets.future}`)
      expect(await imageExists(noFutureImageName(LEAKY))).toBe(false)
    },
  )

  test(
    'replayed through the suite, runs made on the leaky image are screened: record, JSON and html reports, summary',
    { timeout: 400_000 },
    async () => {
      // Two runs "made elsewhere": one that read the fix out of the leaky image, one that looked and then fixed it.
      const cheated = await textEpisode(LEAKY, cheatingCommands())
      const probedThenFixed = await textEpisode(LEAKY, PROBE_THEN_FIX)
      const dir = mkdtempSync(join(tmpdir(), 'swebench-no-future-'))
      temporary.push(dir)
      const runs = join(dir, 'trajectories')
      const dataset = join(dir, 'instances.jsonl')
      const row = await syntheticRow()
      writeFileSync(
        dataset,
        [row, { ...row, instance_id: 'testbench__tinycalc-2' }].map((each) => JSON.stringify(each)).join('\n'),
      )
      for (const [id, run] of [
        ['testbench__tinycalc-1', cheated],
        ['testbench__tinycalc-2', probedThenFixed],
      ] as const) {
        mkdirSync(join(runs, id), { recursive: true })
        const json = trajectoryJson(run, { instanceId: id, model: 'elsewhere', image: LEAKY, config: TEXT_CONFIG })
        writeFileSync(join(runs, id, `${id}.traj.json`), JSON.stringify(json))
      }
      const { records, output, reports } = await runSwebenchSuite({
        MODEL: `replay:${runs}`,
        TESTBENCH_SWEBENCH_MODE: 'agent-text',
        TESTBENCH_SWEBENCH_DATASET_FILE: dataset,
        TESTBENCH_SWEBENCH_IMAGE_TEMPLATE: `${IMAGE_REPO}/sweb.eval.x86_64.{id}:latest`,
        TESTBENCH_SWEBENCH_MEMORY: '512',
        TESTBENCH_HTML_DIR: join(dir, 'html'),
      })
      const byId = new Map(records.map((record) => [record.itemId, record]))
      const cheatedRecord = byId.get('testbench__tinycalc-1')
      const fixedRecord = byId.get('testbench__tinycalc-2')
      const expectedProbes = cheatingCommands().length - 2
      expect(cheatedRecord?.scoring?.historyProbes, output).toBe(expectedProbes)
      expect(cheatedRecord?.scoring?.status).not.toBe('resolved')
      expect([fixedRecord?.scoring?.status, fixedRecord?.scoring?.historyProbes], output).toEqual(['resolved', 2])
      expect(cheatedRecord?.marks).toEqual(['probed_history'])
      expect(fixedRecord?.marks).toEqual(['probed_history'])
      expect(fixedRecord?.reason).toContain('LOOK: resolved after 2 commands that read history beyond the working tree')
      expect(fixedRecord?.output).toContain('history probes: 2 command(s)')
      expect(fixedRecord?.output).toContain('  git reflog  [git reflog reads the reflog]')
      expect(fixedRecord?.output).toMatch(/the agent's image: .*\.no-future:latest/)
      const note =
        'history probes: 2 of 2 instance runs ran commands reading history beyond the working tree; 1 of those resolved (look at: testbench__tinycalc-2)'
      expect(output).toContain(note)
      const jsonReports = readdirSync(join(reports, 'swebench')).filter((file) => file.endsWith('.json'))
      const report = JSON.parse(readFileSync(join(reports, 'swebench', jsonReports[0] ?? ''), 'utf8')) as RunReport
      expect(jsonReports).toHaveLength(1)
      expect(report.scores[0]?.notes).toEqual([note])
      expect(report.items.map((item) => item.scoring?.historyProbes).sort()).toEqual([2, expectedProbes].sort())
      // The html report: each item tagged with the mark (a declared tag), its reason, and the note in the scores it shows.
      const html = itemsOfHtmlReport(join(dir, 'html', 'index.html'))
      expect(html.tags).toContain('probed_history')
      expect(html.items.map((item) => item.tags.includes('probed_history'))).toEqual([true, true])
      expect(
        html.items.map((item) => item.outcome ?? '').filter((shown) => shown.includes('LOOK: resolved after 2')),
      ).toHaveLength(1)
      for (const item of html.items) expect(item.scores).toContain(note)
      // The suite removed what it made.
      expect(await imageExists(noFutureImageName(LEAKY))).toBe(false)
    },
  )
})
