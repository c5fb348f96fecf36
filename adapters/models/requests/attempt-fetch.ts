import { AsyncLocalStorage } from 'node:async_hooks'

const running = new AsyncLocalStorage<typeof fetch>()

/**
 * The `fetch` of an adapter's one SDK client: each request goes through the fetch of the attempt that makes it
 * (`throughAttempt`). A client per attempt (`client.withOptions({ fetch })`) cost the OpenAI SDK about 0.2 ms of CPU a
 * request, its constructor making every resource of the API, in the path every reply waits on.
 */
export const attemptFetch: typeof fetch = (input, init) => {
  const attempted = running.getStore()
  if (attempted === undefined)
    throw new Error(
      'An SDK request was made outside an attempt (adapters/models/requests/attempt-fetch.ts): make it through throughAttempt(attempt.fetch, …).',
    )
  return attempted(input, init)
}

/** Calls `request` (an SDK call of a client built with `attemptFetch`) so that its requests go through `attempted`. */
export function throughAttempt<T>(attempted: typeof globalThis.fetch, request: () => T): T {
  return running.run(attempted, request)
}
