import { expect, test, type TestAnnotation, type TestContext } from 'vitest'
import { withoutAnnotationStacks } from '../../../harness/records/annotation-stacks.ts'

test('annotations keep their message, type and attachment in every form annotate takes', async (context) => {
  const quiet = withoutAnnotationStacks(context)
  const image = { contentType: 'image/svg+xml', body: '<svg/>', bodyEncoding: 'utf-8' as const }
  await quiet.annotate('plain')
  await quiet.annotate('typed', 'reply')
  await quiet.annotate('typed with image', 'prompt', image)
  await quiet.annotate('image only', image)
  const shown = context.task.annotations.map(({ message, type, attachment }) => ({
    message,
    type,
    body: attachment?.body,
  }))
  expect(shown).toEqual([
    { message: 'plain', type: 'notice', body: undefined },
    { message: 'typed', type: 'reply', body: undefined },
    { message: 'typed with image', type: 'prompt', body: '<svg/>' },
    { message: 'image only', type: 'notice', body: '<svg/>' },
  ])
})

test('no stack trace is made while Vitest records the annotation, and the limit is back after it, even when annotate throws', async (context) => {
  const limits: number[] = []
  const annotate = (message: string): Promise<TestAnnotation> => {
    limits.push(Error.stackTraceLimit)
    if (message === 'throw') throw new Error('annotate failed')
    return Promise.resolve({ message, type: 'notice' })
  }
  const fake: TestContext = Object.create(context, { annotate: { value: annotate } })
  const before = Error.stackTraceLimit
  await withoutAnnotationStacks(fake).annotate('fine')
  expect(() => withoutAnnotationStacks(fake).annotate('throw')).toThrow('annotate failed')
  expect(limits).toEqual([0, 0])
  expect(Error.stackTraceLimit).toBe(before)
  expect(new Error('elsewhere').stack?.split('\n').length).toBeGreaterThan(1)
})

test('the rest of the context is the test’s own', (context) => {
  const quiet = withoutAnnotationStacks(context)
  expect(quiet.task).toBe(context.task)
  expect(quiet.signal).toBe(context.signal)
  expect(quiet.expect).toBe(context.expect)
})
