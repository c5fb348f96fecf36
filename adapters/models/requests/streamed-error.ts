/**
 * An error the provider sent inside a reply it had begun with HTTP 200, so that no part of that reply is
 * taken for the model's answer: `retryable` when a new request can get past it (a sampled output the server
 * rejected, an overloaded or failing server), else the request's fault and reported as it is.
 */
export class StreamedError extends Error {
  override readonly name = 'StreamedError'
  readonly retryable: boolean

  constructor(message: string, retryable: boolean) {
    super(message)
    this.retryable = retryable
  }
}
