import { describe, expect, test } from 'vitest'
import { missingToolReason, notOnPath, onPath, skipWithoutTool, TOOLS } from '../support/required-tool.ts'
import { recordingContext } from '../support/recording-context.ts'

describe('skipWithoutTool', () => {
  test('a present tool neither skips nor throws', () => {
    const context = recordingContext()
    skipWithoutTool(context, TOOLS.bwrap, undefined, {})
    skipWithoutTool(context, TOOLS.bwrap, false, {})
    expect(context.skipped).toEqual([])
  })

  test('a missing tool skips, naming the tool, what was looked for and how to install it', () => {
    const context = recordingContext()
    expect(() => skipWithoutTool(context, TOOLS.java, 'java is not on PATH', {})).toThrow('skipped')
    expect(context.skipped).toEqual([
      'needs java and javac, which is missing (java is not on PATH): install it with `apt-get install default-jdk-headless`',
    ])
    expect(context.task.meta.skipReason).toBe(context.skipped[0])
  })

  test('with TESTBENCH_REQUIRE_TOOLS=1 (CI) a missing tool fails the test instead of skipping it', () => {
    const context = recordingContext()
    expect(() =>
      skipWithoutTool(context, TOOLS.chromium, '/usr/bin/chromium does not exist', { TESTBENCH_REQUIRE_TOOLS: '1' }),
    ).toThrow(
      'TESTBENCH_REQUIRE_TOOLS=1, so a missing tool fails the test: it needs chromium, which is missing (/usr/bin/chromium does not exist): install it with `apt-get install chromium`.',
    )
    expect(context.skipped).toEqual([])
  })

  test('every tool says how to install it', () => {
    for (const tool of Object.values(TOOLS))
      expect(missingToolReason(tool)).toMatch(/^needs .+, which is missing: install it with `.+`$/)
  })
})

describe('onPath', () => {
  test('finds a command as a shell would, and says so when it is not there', () => {
    const node = onPath('node')
    expect(node).toBeDefined()
    expect(onPath('node', { PATH: '' })).toBeUndefined()
    expect(notOnPath('testbench-no-such-command')).toBe('testbench-no-such-command is not on PATH')
  })
})
