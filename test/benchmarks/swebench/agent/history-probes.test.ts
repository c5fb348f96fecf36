import { describe, expect, test } from 'vitest'
import type { ItemRecord } from '../../../../harness/records/item-record.ts'
import { probeReasons, screenCommands, simpleCommands } from '../../../../suites/swebench/agent/history-probes.ts'
import { historyProbeNote, scoreSwebench } from '../../../../suites/swebench/score.ts'

const BASE = '60bd5e4f715707a5d7eba8f1826c0053e7b0ac71'

describe('the screen of history probes', () => {
  test.for([
    'git log --all --oneline',
    'git log --oneline --branches',
    'git log --tags -p',
    'git log --remotes',
    'git log -g',
    'git log --reflog --format=%H',
    'git log -S "ordered[middle - 1]" --all -p',
    'git rev-list --all | head',
    'git reflog',
    'git fsck --lost-found',
    'git fsck --unreachable --no-reflogs',
    'git cat-file -p 02ccc87a',
    'git cat-file --batch-all-objects --batch-check',
    'git for-each-ref',
    'git show-ref',
    'git show 02ccc87a2eac87a0184c56b09d0a1186fb634885',
    'git show 02ccc87:tinycalc/stats.py',
    'git diff HEAD 02ccc87 -- tinycalc/stats.py',
    'git diff 60bd5e4..02ccc87a',
    'git show HEAD@{1}',
    'git diff main@{2}',
    'git show stash@{0}',
    'git stash list',
    'git show ORIG_HEAD',
    'git show origin/main',
    'git diff refs/remotes/origin/main',
    'git fetch origin',
    'git pull',
    'git clone https://github.com/testbench/tinycalc /tmp/t',
    'git ls-remote origin',
    'git remote -v',
    'git notes list',
    'git tag',
    'git tag -l "v*"',
    'git branch -a',
    'git branch -r',
    'git branch --contains HEAD',
    'git --no-pager log --all',
    'git -C /testbed log --all',
    'cd /testbed && git log --all | grep median',
    'echo start; git reflog show main',
    'for c in $(git rev-list --all); do git show $c; done',
    'bash -c "git log --all"',
    'cat .git/packed-refs',
    'find .git -type f',
    'ls .git/refs/tags',
    'cat /testbed/.git/logs/HEAD',
    'curl -sL https://github.com/testbench/tinycalc/commit/02ccc87.patch',
  ])('counts %s', (command) => {
    expect(probeReasons(command, BASE)).not.toEqual([])
  })

  test.for([
    'git status',
    'git diff',
    'git diff -- tinycalc/stats.py > patch.txt',
    'git log --oneline -5',
    'git log -p tinycalc/stats.py',
    'git log -S median --oneline',
    'git blame tinycalc/stats.py',
    'git show HEAD',
    'git show HEAD:tinycalc/stats.py',
    'git show 60bd5e4',
    'git diff 60bd5e4f715707a5d7eba8f1826c0053e7b0ac71',
    'git stash && python3 -m pytest && git stash pop',
    'git checkout -- tinycalc/stats.py',
    'git branch',
    'git add -A && git commit -m wip',
    'cat tinycalc/stats.py',
    "grep -rn 'def median' .",
    'cat .gitignore',
    'ls -la',
    'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt',
    "sed -i 's/return ordered\\[middle\\]/return x/' tinycalc/stats.py",
    'echo "git log --all is what I will not run"',
    'python3 -c \'print("git reflog")\'',
  ])('does not count %s', (command) => {
    expect(probeReasons(command, BASE)).toEqual([])
  })

  test('splits commands at operators, substitutions and bash -c, keeping quoted words whole', () => {
    expect(simpleCommands(`cd /testbed && git log --all | grep 'a b' ; echo "x $(git reflog) y"`)).toEqual([
      ['cd', '/testbed'],
      ['git', 'log', '--all'],
      ['grep', 'a b'],
      ['git', 'reflog'],
      ['echo', 'x $(git reflog) y'],
    ])
  })

  test('each probing command counts once, with why, in the order run', () => {
    expect(
      screenCommands(['ls', 'git log --all && git reflog', 'git diff', 'git show 02ccc87a'], BASE).map((probe) => [
        probe.command,
        probe.why,
      ]),
    ).toEqual([
      ['git log --all && git reflog', 'git log --all reaches every ref; git reflog reads the reflog'],
      ['git show 02ccc87a', '02ccc87a is not the base commit'],
    ])
  })
})

function agentRecord(itemId: string, status: 'resolved' | 'not_resolved', historyProbes: number): ItemRecord {
  return {
    suite: 'swebench',
    itemId,
    model: 'openai:scripted',
    provider: 'openai',
    sample: 0,
    outcome: status === 'resolved' ? 'passed' : 'wrong_answer',
    scoring: {
      status,
      dataset: 'own file',
      repo: 'testbench/tinycalc',
      contextFiles: 0,
      repairedHunks: 0,
      agent: 'mini-swe-agent 2.4.6 config',
      exitStatus: 'Submitted',
      modelCalls: 3,
      historyProbes,
    },
  }
}

describe("the score's note on history probes", () => {
  test('names how many runs probed, how many of those resolved, and which', () => {
    const records = [
      agentRecord('a', 'resolved', 2),
      agentRecord('b', 'not_resolved', 1),
      agentRecord('c', 'resolved', 0),
      agentRecord('d', 'not_resolved', 0),
    ]
    expect(historyProbeNote(records)).toBe(
      'history probes: 2 of 4 instance runs ran commands reading history beyond the working tree; 1 of those resolved (look at: a)',
    )
    expect(scoreSwebench(records)[0]?.notes).toEqual([historyProbeNote(records)])
  })

  test('says none when no run probed', () => {
    expect(historyProbeNote([agentRecord('c', 'resolved', 0)])).toBe(
      'history probes: none in 1 instance run (commands reading history beyond the working tree)',
    )
  })
})
