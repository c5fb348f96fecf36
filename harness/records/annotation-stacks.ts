import type { TestAnnotation, TestAttachment, TestContext } from 'vitest'

/**
 * The test's context with an `annotate` that makes no stack trace. For every annotation Vitest
 * builds a source-mapped stack trace, to find in it the line of the test file that annotated; the
 * harness annotates from its own code (harness/records/show-record.ts), where no such line is, so that
 * search always came back empty, at about 0.7 ms of CPU per annotation (3.5 ms per FaRel item).
 * Vitest makes the trace inside the `annotate` call, before it first awaits: the limit is back
 * before any other code runs.
 */
export function withoutAnnotationStacks(context: TestContext): TestContext {
  function annotate(
    message: string,
    typeOrAttachment?: string | TestAttachment,
    attachment?: TestAttachment,
  ): Promise<TestAnnotation> {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      return typeof typeOrAttachment === 'object'
        ? context.annotate(message, typeOrAttachment)
        : context.annotate(message, typeOrAttachment, attachment)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
  const quiet: TestContext = Object.create(context, { annotate: { value: annotate } })
  return quiet
}
