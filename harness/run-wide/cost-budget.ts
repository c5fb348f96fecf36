import { numberKnob, type KnobGroup } from '../../adapters/knob.ts'
import type { ChatReply, ChatRequest } from '../../adapters/models/model-adapter.ts'
import { ProviderError } from '../../adapters/models/model-adapter.ts'
import { pricesFromEnv, PricesError, tokenCost, type Prices, type TokenPrice } from './prices.ts'

export const COST_LIMIT = numberKnob({
  name: 'TESTBENCH_COST_LIMIT',
  above: true,
  unit: 'an amount in the prices file’s currency,',
  readme:
    'the most a run may spend (TESTBENCH_PRICES must price every model it runs): no request starts once what was spent plus what the requests in flight may still cost reaches it; items not asked end as provider_error and a rerun with a higher limit asks only those',
})

export const budgetKnobs: KnobGroup = {
  title: 'cost limit',
  knobs: [COST_LIMIT],
  check: (env) => {
    if (COST_LIMIT.read(env) !== undefined && pricesFromEnv(env) === undefined)
      throw new PricesError(unpricedModels(['the models of MODEL'], undefined))
  },
}

/** What a request may cost at most, when it sets no maxTokens: the output limit assumed for it. */
export const ASSUMED_MAX_OUTPUT_TOKENS = 32_768

/** An item not asked because the run's cost limit was reached: not the model's fault, asked on the next run. */
export class CostLimitReached extends ProviderError {
  readonly costLimit = true
}

/**
 * The run's spending against TESTBENCH_COST_LIMIT. A request reserves what requests like it (the same model and
 * suite) have cost so far in the run, on average, capped by its worst case (its prompt at about 3 characters a token
 * plus its maxTokens, at the model's prices); until one of its kind has ended, its kind goes one request at a time,
 * reserving its worst case or what is left of the limit, whichever is less. A request starts when what was spent
 * plus every reservation, its own included, stays within the limit; while requests in flight may still end cheaper
 * than reserved, it waits for them; it is refused once even what was spent leaves no room for it. When it ends, its
 * reservation becomes what it cost. The most a run passes its limit by is what its requests in flight cost beyond
 * their reservations. One ledger for the run: the slot server's (harness/run-wide/run-slots.ts), or this process's.
 */
export interface Ledger {
  /** Reserves a request of `kind` whose worst case is `worstCase`; undefined when the limit leaves no room for it. */
  reserve(worstCase: number, kind: string): Promise<Reservation | undefined>
  state(): LedgerState
}

export interface Reservation {
  /** Turns the reservation into what the request cost (its worst case when the request never ended). */
  settle(cost: number): void
}

export interface LedgerState {
  limit: number
  spent: number
  inFlight: number
  refused: number
  /** Requests granted in all. */
  sent?: number
  /** The largest worst case among the requests refused: why none could be sent, when none was. */
  refusedWorstCase?: number
}

const ROUNDING = 1e-9

/** What the requests of one kind have cost so far, and whether one of them without an estimate is in flight. */
interface Kind {
  ended: number
  cost: number
  probing: boolean
}

export function localLedger(limit: number): Ledger & { settleDirect(reserved: number, cost: number): void } {
  const state: LedgerState = { limit, spent: 0, inFlight: 0, refused: 0, sent: 0 }
  const kinds = new Map<string, Kind>()
  const waiting: Array<() => boolean> = []
  /** Each waiting request tries again: one that ended left room, or an estimate. */
  const wake = (): void => {
    for (const retry of waiting.splice(0)) if (!retry()) waiting.push(retry)
  }
  const settleDirect = (reserved: number, cost: number): void => {
    state.inFlight -= reserved
    state.spent += cost
    wake()
  }
  const reserve = (worstCase: number, kindName: string): Promise<Reservation | undefined> =>
    new Promise((resolve) => {
      let kind = kinds.get(kindName)
      if (kind === undefined) kinds.set(kindName, (kind = { ended: 0, cost: 0, probing: false }))
      const of = kind
      /** True once the request is granted or refused; false while it waits. */
      const attempt = (): boolean => {
        // A sum of costs in floating point may pass the limit by a rounding error: that is not passing it.
        const room = state.limit - state.spent - state.inFlight
        const left = room + ROUNDING * state.limit
        if (of.ended === 0) {
          // No estimate yet: one request of the kind at a time, alone, reserving what is left at most.
          if (of.probing) return false
          if (state.limit - state.spent <= 0) return refuse()
          if (room <= 0) return false
          of.probing = true
          return grant(Math.min(worstCase, room), true)
        }
        const estimate = Math.min(worstCase, of.cost / of.ended)
        if (estimate <= left) return grant(estimate, false)
        // Requests in flight may end cheaper than reserved; once none is, there is no room.
        if (state.spent + estimate > state.limit * (1 + ROUNDING) || state.inFlight <= 0) return refuse()
        return false
      }
      const refuse = (): boolean => {
        state.refused++
        state.refusedWorstCase = Math.max(state.refusedWorstCase ?? 0, worstCase)
        resolve(undefined)
        return true
      }
      const grant = (reserved: number, probe: boolean): boolean => {
        state.inFlight += reserved
        state.sent = (state.sent ?? 0) + 1
        let settled = false
        resolve({
          settle: (cost) => {
            if (settled) return
            settled = true
            of.ended++
            of.cost += cost
            if (probe) of.probing = false
            settleDirect(reserved, cost)
          },
        })
        return true
      }
      if (!attempt()) waiting.push(attempt)
    })
  return { reserve, state: () => ({ ...state }), settleDirect }
}

/** The most `request` may cost at `price`. */
export function worstCaseCost(request: ChatRequest, price: TokenPrice): number {
  const characters = request.messages.reduce((total, message) => total + message.content.length, 0)
  const prompt = Math.ceil(characters / 3) + 16 * request.messages.length
  return tokenCost({ prompt, completion: request.params.maxTokens ?? ASSUMED_MAX_OUTPUT_TOKENS }, price).total
}

/**
 * What `reply` cost: what the provider said it cost (OpenRouter's `usage.cost`, in US dollars) when the prices
 * file counts in US dollars too; else its tokens at `price`; the worst case when the provider reported none.
 */
export function replyCost(reply: ChatReply, price: TokenPrice, worstCase: number, currency: string): number {
  if (reply.tokens === undefined) return worstCase
  if (reply.tokens.cost !== undefined && currency.toUpperCase() === 'USD') return reply.tokens.cost
  return tokenCost(reply.tokens, price).total
}

/** Every model a run asks needs a price when the run has a cost limit; the message when one has none. */
export function unpricedModels(labels: readonly string[], prices: Prices | undefined): string | undefined {
  const missing = labels.filter((label) => prices?.perMillionTokens[label] === undefined)
  if (missing.length === 0) return undefined
  return prices === undefined
    ? `${COST_LIMIT.name} needs token prices: set TESTBENCH_PRICES to a prices file that prices ${missing.join(', ')}.`
    : `${COST_LIMIT.name} needs a price for every model the run asks, and ${prices.file} has none for ${missing.join(', ')}: add them to its "perMillionTokens".`
}

/** `spent 0.0123 of 0.0500 USD` */
export function spentText(state: LedgerState, currency: string): string {
  return `spent ${state.spent.toFixed(4)} of ${state.limit.toFixed(4)} ${currency}`
}

/**
 * Why no request could be sent at all, and what to change; empty when some were: `. No request was sent: one may
 * cost up to 3.2800 USD (its prompt and the 32,768 output tokens assumed…) and the limit left 0.1800 …`.
 */
export function noneSent(state: LedgerState, currency: string): string {
  if ((state.sent ?? 0) > 0 || state.refused === 0) return ''
  const worst = state.refusedWorstCase ?? 0
  return (
    `. No request was sent: the limit had ${Math.max(0, state.limit - state.spent).toFixed(4)} ${currency} left, and one request may cost up to ${worst.toFixed(4)} (its prompt and its maxTokens, ` +
    `or the ${ASSUMED_MAX_OUTPUT_TOKENS} output tokens assumed without one). Raise ${COST_LIMIT.name}, or give the suite a lower maxTokens`
  )
}
