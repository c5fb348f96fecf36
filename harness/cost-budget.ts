import { numberKnob, type KnobGroup } from '../adapters/knob.ts'
import type { ChatReply, ChatRequest } from '../adapters/models/model-adapter.ts'
import { ProviderError } from '../adapters/models/model-adapter.ts'
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
 * The run's spending against TESTBENCH_COST_LIMIT: a request reserves its worst case before it is sent
 * (its prompt at about 3 characters a token plus its maxTokens, at the model's prices) and is refused when
 * what was spent plus every reservation would pass the limit; when it ends, its reservation becomes what
 * it cost. One ledger for the run: the slot server's (harness/run-slots.ts), or this process's.
 */
export interface Ledger {
  /** Reserves `worstCase`; false when it would pass the limit. */
  reserve(worstCase: number): Promise<Reservation | undefined>
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
}

export function localLedger(limit: number): Ledger & { settleDirect(worstCase: number, cost: number): void } {
  const state: LedgerState = { limit, spent: 0, inFlight: 0, refused: 0 }
  const grant = (worstCase: number): boolean => {
    if (state.spent + state.inFlight + worstCase > state.limit) {
      state.refused++
      return false
    }
    state.inFlight += worstCase
    return true
  }
  const settleDirect = (worstCase: number, cost: number): void => {
    state.inFlight -= worstCase
    state.spent += cost
  }
  return {
    reserve: async (worstCase) => {
      if (!grant(worstCase)) return undefined
      let settled = false
      return {
        settle: (cost) => {
          if (settled) return
          settled = true
          settleDirect(worstCase, cost)
        },
      }
    },
    state: () => ({ ...state }),
    settleDirect,
  }
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
