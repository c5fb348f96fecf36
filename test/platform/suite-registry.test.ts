/**
 * Every suite folder declares itself once (suites/<name>/suite.ts) and has its one line in
 * suites/registered.ts; what reads per-suite facts reads them from there, and the suite-matrix
 * workflow offers the suites and part counts the declarations give.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import * as registered from '../../suites/registered.ts'
import { suites } from '../../suites/registry.ts'
import { REPO_ROOT } from '../support/run-vitest.ts'

const SUITES = join(REPO_ROOT, 'suites')
const folders = readdirSync(SUITES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

describe('the suite registry', () => {
  test('names every suite folder once, under its own name', () => {
    expect(suites.map((suite) => suite.name)).toEqual(folders)
    for (const [exported, suite] of Object.entries(registered))
      expect(exported, `suites/registered.ts exports ${suite.name}'s declaration`).toBe(suite.name)
  })

  test.for(suites.map((suite) => ({ name: suite.name, suite })))(
    '$name: declares the part files it has, knobs titled by its name, and has its page',
    ({ name, suite }) => {
      const testFiles = readdirSync(join(SUITES, name))
        .filter((file) => file.endsWith('.test.ts'))
        .sort()
      const expected =
        (suite.parts ?? 1) === 1
          ? [`${name}.test.ts`]
          : Array.from({ length: suite.parts ?? 1 }, (_, index) => `${name}-${index + 1}.test.ts`).sort()
      expect(testFiles).toEqual(expected)
      if (suite.knobs !== undefined) expect(suite.knobs.title).toBe(name)
      expect(existsSync(join(SUITES, name, 'README.md')), `suites/${name}/README.md`).toBe(true)
    },
  )

  test('reporters and scripts read suites through the registry, never a suite folder of their own choosing', () => {
    const lists: string[] = []
    for (const layer of ['reporters']) {
      for (const file of readdirSync(join(REPO_ROOT, layer)).filter((name) => name.endsWith('.ts'))) {
        const text = readFileSync(join(REPO_ROOT, layer, file), 'utf8')
        for (const [, target] of text.matchAll(/from '\.\.\/suites\/([^']+)'/g))
          if (target !== 'registry.ts') lists.push(`${layer}/${file} imports suites/${target}`)
      }
    }
    expect(lists).toEqual([])
  })
})

describe('the suite-matrix workflow', () => {
  const workflow = readFileSync(join(REPO_ROOT, '.github', 'workflows', 'suite-matrix.yml'), 'utf8')
  const split = suites.filter((suite) => (suite.parts ?? 1) > 1)

  test('offers each suite that has part files', () => {
    const options = /^\s+options: \[([^\]]*)\]/m
      .exec(workflow)?.[1]
      ?.split(',')
      .map((name) => name.trim())
    expect(options).toEqual(split.map((suite) => suite.name))
  })

  test('says how many parts each has, and allows as many runners as the most parts', () => {
    const parts = /\(parts: ([^)]*)\)/.exec(workflow)?.[1] ?? ''
    expect(parts).toBe(split.map((suite) => `${suite.name} ${suite.parts ?? 1}`).join(', '))
    const most = Math.max(...split.map((suite) => suite.parts ?? 1))
    expect(workflow).toContain(`[ "$count" -le ${most} ]`)
  })
})
