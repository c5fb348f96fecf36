/**
 * The limits providers run, as models a loopback server enforces and the rate-limited bench's yardstick schedules
 * against: a fixed window (a count that resets at each window's end), a sliding window (at most `limit` in any
 * `windowMs`), and a token bucket (capacity refilled continuously, Anthropic's documented algorithm; OpenAI's
 * per-minute limits enforced over shorter periods behave alike). Units are requests or tokens.
 */
export interface Limiter {
  readonly kind: LimiterKind
  limit: number
  /** Takes `cost` at `now` when the limit has room for it, and says whether it did. */
  take(now: number, cost: number): boolean
  /** Takes `cost` whatever is left (output tokens, counted once the reply is known); a bucket may go below 0. */
  charge(now: number, cost: number): void
  /**
   * The earliest time from `now` at which `cost` fits; Infinity when it never does (more than the whole limit). Time
   * only goes on: a `now` before the latest time a limiter has seen counts as that time.
   */
  fitsAt(now: number, cost: number): number
  /** What is left now, and the time until the limit is whole again (the `reset` providers send). */
  left(now: number): { remaining: number; resetMs: number }
}

export type LimiterKind = 'fixed' | 'sliding' | 'bucket'

/** A float's slack: a bucket refilled to exactly the cost at `fitsAt` admits it. */
const EPSILON = 1e-9

/** `limit` per window; the windows begin at the first request (the time the limit allows counts from it). */
export function fixedWindow(limit: number, windowMs: number): Limiter {
  let origin: number | undefined
  let window = -1
  let used = 0
  const roll = (now: number): number => {
    origin ??= now
    const current = Math.floor((now - origin) / windowMs)
    if (current > window) [window, used] = [current, 0]
    return origin + (window + 1) * windowMs
  }
  const latest = (now: number): number => Math.max(now, (origin ?? now) + window * windowMs)
  const self: Limiter = {
    kind: 'fixed',
    limit,
    take: (now, cost) => {
      roll(now)
      if (used + cost > self.limit) return false
      used += cost
      return true
    },
    charge: (now, cost) => {
      roll(now)
      used += cost
    },
    fitsAt: (now, cost) => {
      const end = roll(now)
      if (cost > self.limit) return Infinity
      return used + cost <= self.limit ? latest(now) : end
    },
    left: (now) => {
      const end = roll(now)
      return { remaining: Math.max(0, self.limit - used), resetMs: end - now }
    },
  }
  return self
}

/** At most `limit` in any `windowMs`: each request counts until `windowMs` after it. */
export function slidingWindow(limit: number, windowMs: number): Limiter {
  const taken: Array<{ at: number; cost: number }> = []
  const latest = (now: number): number => Math.max(now, taken.at(-1)?.at ?? now)
  const expire = (now: number): number => {
    while (taken.length > 0 && (taken[0]?.at ?? 0) + windowMs <= now) taken.shift()
    return taken.reduce((sum, each) => sum + each.cost, 0)
  }
  const self: Limiter = {
    kind: 'sliding',
    limit,
    take: (now, cost) => {
      if (expire(now) + cost > self.limit) return false
      taken.push({ at: now, cost })
      return true
    },
    charge: (now, cost) => {
      expire(now)
      taken.push({ at: now, cost })
    },
    fitsAt: (now, cost) => {
      if (cost > self.limit) return Infinity
      const at = latest(now)
      let excess = expire(at) + cost - self.limit
      if (excess <= 0) return at
      for (const each of taken) {
        excess -= each.cost
        if (excess <= 0) return each.at + windowMs
      }
      return Infinity
    },
    left: (now) => {
      const used = expire(now)
      return {
        remaining: Math.max(0, self.limit - used),
        resetMs: taken.length === 0 ? 0 : (taken.at(-1)?.at ?? now) + windowMs - now,
      }
    },
  }
  return self
}

/** A bucket of `capacity`, full at first, refilled by `perWindow` every `windowMs`, continuously. */
export function tokenBucket(capacity: number, perWindow: number, windowMs: number): Limiter {
  let level = capacity
  let last: number | undefined
  const perMs = perWindow / windowMs
  const refill = (now: number): void => {
    if (last !== undefined && now > last) level = Math.min(self.limit, level + (now - last) * perMs)
    last = Math.max(last ?? now, now)
  }
  const self: Limiter = {
    kind: 'bucket',
    limit: capacity,
    take: (now, cost) => {
      refill(now)
      if (level + EPSILON < cost) return false
      level -= cost
      return true
    },
    charge: (now, cost) => {
      refill(now)
      level -= cost
    },
    fitsAt: (now, cost) => {
      refill(now)
      if (cost > self.limit) return Infinity
      const at = Math.max(now, last ?? now)
      return level + EPSILON >= cost ? at : at + (cost - level) / perMs
    },
    left: (now) => {
      refill(now)
      return { remaining: Math.max(0, Math.floor(level + EPSILON)), resetMs: Math.max(0, (self.limit - level) / perMs) }
    },
  }
  return self
}

/** The limiter of a kind: a bucket's capacity is `burst` (the whole per-window limit when absent, as Anthropic's). */
export function limiterOf(kind: LimiterKind, perWindow: number, windowMs: number, burst?: number): Limiter {
  switch (kind) {
    case 'fixed':
      return fixedWindow(perWindow, windowMs)
    case 'sliding':
      return slidingWindow(perWindow, windowMs)
    case 'bucket':
      return tokenBucket(burst ?? perWindow, perWindow, windowMs)
  }
}
