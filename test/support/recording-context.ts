import type { SkippableContext } from './required-tool.ts'

/** A test context whose skip is recorded instead of ending the test, for testing the helpers that skip. */
export function recordingContext(): SkippableContext & { skipped: string[]; task: { meta: { skipReason?: string } } } {
  const skipped: string[] = []
  return {
    skipped,
    task: { meta: {} },
    skip(note?: string): never {
      skipped.push(note ?? '')
      throw new Error('skipped')
    },
  }
}
