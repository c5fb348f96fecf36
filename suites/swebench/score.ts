/**
 * SWE-bench's score: % Resolved, the share of instances whose patch made every
 * FAIL_TO_PASS and PASS_TO_PASS test pass. The denominator is upstream's: every
 * instance evaluated, an instance whose evaluation broke (image, container, a run that
 * ended before its tests: `infra_error`) counting as not resolved, as in SWE-bench's
 * report; those are reported apart ("evaluation errors"), and the gate still fails on them.
 * Left out, with the reason: instances the model could not be asked (`provider_error`) and
 * patches generated without evaluation. Its 95% interval is Wilson's (on the effective sample size when an
 * instance has several samples). An instance that broke before it recorded its facts (a clone that
 * failed) counts by its outcome all the same: `infra_error` as an evaluation error, anything else left out.
 */
import { groupBy } from '../../harness/group-by.ts'
import type { ItemRecord } from '../../harness/records/item-record.ts'
import type { Score, Scorer } from '../../harness/scoring/score.ts'
import type { SampleCount } from '../../harness/scoring/pass-at-k.ts'
import { meanInterval, shareIntervalMethod } from '../../harness/scoring/proportion-interval.ts'
import { optional, scoringFacts, type FactsOf } from '../../harness/scoring/scoring-facts.ts'
import { APPLIED_WITH } from './evaluation/evaluate.ts'
import type { VerdictStatus } from './patches/judge-reply.ts'
import { EXIT_STATUSES } from './agent/agent-loop.ts'

const STATUSES = [
  'resolved',
  'partially_resolved',
  'not_resolved',
  'patch_error',
  'timeout',
  'infra_error',
  'empty_patch',
  'generated',
] as const satisfies readonly VerdictStatus[]

/** What each SWE-bench item records: how its patch fared, the dataset and repository, and what the judging saw. */
export const swebenchFacts = scoringFacts('swebench', {
  status: STATUSES,
  dataset: 'string',
  repo: 'string',
  contextFiles: 'number',
  repairedHunks: 'number',
  appliesCleanly: optional('boolean'),
  appliedWith: optional(APPLIED_WITH),
  evaluationMs: optional('number'),
  /** The agent configuration an agent run reproduces (`mini-swe-agent 2.4.6 config`); absent for one-shot runs. */
  agent: optional('string'),
  exitStatus: optional(EXIT_STATUSES),
  modelCalls: optional('number'),
  /** Dollars, for models TESTBENCH_PRICES prices. */
  agentCost: optional('number'),
  /** Commands of the agent that read the repository's history beyond its working tree (history-probes.ts). */
  historyProbes: optional('number'),
})
export type SwebenchFacts = FactsOf<typeof swebenchFacts>

const DATASET_NAMES: Record<string, string> = {
  lite: 'SWE-bench Lite',
  verified: 'SWE-bench Verified',
  full: 'SWE-bench',
}

export const scoreSwebench: Scorer = (records) => {
  const own = records.filter((record) => record.suite === 'swebench')
  const recorded = own.filter((record) => swebenchFacts.readIfRecorded(record) !== undefined)
  const groups = groupBy(recorded, (record) => {
    const facts = swebenchFacts.read(record)
    return `${record.model}\u0000${facts.dataset}\u0000${facts.agent ?? ''}`
  })
  // An instance that broke before it recorded its facts (the dataset among them) joins its model's first group.
  for (const record of own) {
    if (swebenchFacts.readIfRecorded(record) !== undefined) continue
    const key = [...groups.keys()].find((each) => each.startsWith(`${record.model}\u0000`)) ?? `${record.model}\u0000`
    groups.set(key, [...(groups.get(key) ?? []), record])
  }
  return [...groups.values()].map(scoreModel)
}

/** The name of a score none of whose records says which dataset it ran. */
const DATASET_NOT_RECORDED = 'dataset not recorded'

/**
 * `SWE-bench Lite % Resolved`; a run on your own file is `SWE-bench (own file) % Resolved`; an agent run names
 * the configuration it reproduces, as SWE-bench's bash-only board does: `SWE-bench Verified % Resolved (bash-only, mini-swe-agent 2.4.6 config)`.
 */
export function scoreName(dataset: string, agent?: string): string {
  const name = `${DATASET_NAMES[dataset] ?? `SWE-bench (${dataset})`} % Resolved`
  return agent === undefined ? name : `${name} (bash-only, ${agent})`
}

function scoreModel(records: readonly ItemRecord[]): Score {
  const [first] = records
  if (first === undefined) throw new Error('a SWE-bench score needs at least one record')
  const model = first.model
  const excluded: Array<{ itemId: string; reason: string }> = []
  const tally = {
    resolved: 0,
    partially_resolved: 0,
    not_resolved: 0,
    patch_error: 0,
    empty_patch: 0,
    timeout: 0,
    infra_error: 0,
  }
  let counted = 0
  const instances = new Map<string, SampleCount>()
  const count = (itemId: string, resolved: boolean): void => {
    const instance = instances.get(itemId) ?? { n: 0, c: 0 }
    instance.n++
    if (resolved) instance.c++
    instances.set(itemId, instance)
  }
  for (const record of records) {
    const status = swebenchFacts.readIfRecorded(record)?.status
    if (record.outcome === 'provider_error') {
      excluded.push({
        itemId: record.itemId,
        reason: `${record.outcome}: ${(record.output ?? '').split('\n')[0] ?? ''}`,
      })
    } else if (record.outcome === 'infra_error') {
      counted++
      tally.infra_error++
      count(record.itemId, false)
    } else if (status === 'generated') {
      excluded.push({ itemId: record.itemId, reason: 'not evaluated (TESTBENCH_SWEBENCH_EVALUATE=0)' })
    } else if (status === undefined) {
      excluded.push({
        itemId: record.itemId,
        reason: `${record.outcome ?? 'unfinished'} without SWE-bench facts: ${(record.reason ?? '').split('\n')[0] ?? ''}`,
      })
    } else {
      counted++
      if (status in tally) tally[status as keyof typeof tally]++
      count(record.itemId, status === 'resolved')
    }
  }
  const value = counted === 0 ? 0 : (100 * tally.resolved) / counted
  const shares = [...instances.values()]
  const interval =
    shares.length === 0 ? undefined : meanInterval(shares.map(({ n, c }) => ({ value: c / n, weight: n, samples: n })))
  const named = records.map((record) => swebenchFacts.readIfRecorded(record)).find((facts) => facts !== undefined)
  return {
    suite: 'swebench',
    model,
    name: scoreName(named?.dataset ?? DATASET_NOT_RECORDED, named?.agent),
    value,
    display: `${value.toFixed(2)}%`,
    ...(interval
      ? {
          interval: {
            low: 100 * interval.low,
            high: 100 * interval.high,
            method: shareIntervalMethod(shares.length, counted),
          },
        }
      : {}),
    counted: { solved: tally.resolved, total: counted },
    columns: {
      resolved: String(tally.resolved),
      partially: String(tally.partially_resolved),
      'not resolved': String(tally.not_resolved),
      'patch errors': String(tally.patch_error + tally.empty_patch),
      timeouts: String(tally.timeout),
      'evaluation errors': String(tally.infra_error),
      'not judged': String(excluded.length),
    },
    ...(named?.agent === undefined ? {} : { notes: [historyProbeNote(records)] }),
    ...(excluded.length > 0 ? { excluded } : {}),
  }
}

/**
 * How many of an agent's instance runs ran commands that read the repository's history beyond its working tree, and
 * how many of those were resolved, named: a reader looks at how those got their verdict.
 */
export function historyProbeNote(records: readonly ItemRecord[]): string {
  const screened = records.filter((record) => swebenchFacts.readIfRecorded(record)?.historyProbes !== undefined)
  const probed = screened.filter((record) => (swebenchFacts.read(record).historyProbes ?? 0) > 0)
  const resolved = probed.filter((record) => swebenchFacts.read(record).status === 'resolved')
  const runs = `${screened.length} instance run${screened.length === 1 ? '' : 's'}`
  if (probed.length === 0) return `history probes: none in ${runs} (commands reading history beyond the working tree)`
  const named = resolved.map((record) => (record.sample === 0 ? record.itemId : `${record.itemId} #${record.sample}`))
  return (
    `history probes: ${probed.length} of ${runs} ran commands reading history beyond the working tree; ` +
    `${resolved.length} of those resolved${named.length > 0 ? ` (look at: ${named.join(', ')})` : ''}`
  )
}
