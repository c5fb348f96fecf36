/** One vocabulary for how an item ended, shared by suites, sandboxes, reporters and the gate. */
export const OUTCOMES = [
  'passed',
  'wrong_answer',
  'no_answer',
  'compile_error',
  'runtime_error',
  'timeout',
  'memory',
  'provider_error',
  'infra_error',
] as const

export type Outcome = (typeof OUTCOMES)[number]

/** Outcomes that are not the model's fault: reports keep them apart and the gate treats them as errors. */
export const NOT_THE_MODELS_FAULT: ReadonlySet<Outcome> = new Set(['provider_error', 'infra_error'])

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && (OUTCOMES as readonly string[]).includes(value)
}

/** How something ended and why, in one line for people: what sandboxes, judges and suites return. */
export interface Verdict {
  outcome: Outcome
  reason: string
}
