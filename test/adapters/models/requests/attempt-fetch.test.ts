import { expect, test } from 'vitest'
import { attemptFetch, throughAttempt } from '../../../../adapters/models/requests/attempt-fetch.ts'

/** A fetch that answers with its own name, after `delayMs`. */
function namedFetch(name: string, delayMs: number): typeof fetch {
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    return new Response(name)
  }
}

test('each request goes through the fetch of the attempt that made it, however their awaits interleave', async () => {
  const ask = async (name: string, delayMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    return (await attemptFetch('http://127.0.0.1:1/')).text()
  }
  const answers = await Promise.all(
    ['a', 'b', 'c'].map((name, index) => throughAttempt(namedFetch(name, 5 * index), () => ask(name, 15 - 5 * index))),
  )
  expect(answers).toEqual(['a', 'b', 'c'])
})

test('a request made outside an attempt fails, rather than going out unwatched', () => {
  expect(() => attemptFetch('http://127.0.0.1:1/')).toThrow(/outside an attempt/)
})
