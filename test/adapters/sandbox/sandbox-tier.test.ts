import { describe, expect, test } from 'vitest'
import type { HostProtections } from '../../../adapters/sandbox/process/host-protections.ts'
import { processTierProblem, unsandboxedProblem } from '../../../adapters/sandbox/process/host-protections.ts'
import { configuredTier, tierReadiness, UNSANDBOXED } from '../../../adapters/sandbox/sandbox-tier.ts'
import type { ItemRecord } from '../../../harness/records/item-record.ts'
import { leaderboardMarkdown } from '../../../reporters/leaderboard/leaderboard.ts'
import { buildRunReport, summaryText } from '../../../reporters/run-report.ts'

const WORKING: HostProtections = {
  bwrap: '/usr/bin/bwrap',
  bwrapVersion: 'bubblewrap 0.8.0',
  prlimit: '/usr/bin/prlimit',
  setpriv: '/usr/bin/setpriv',
  kill: '/usr/bin/kill',
  time: '/usr/bin/time',
  root: true,
}

describe('sandbox tier: fail closed', () => {
  test('SANDBOX takes process (the default), docker or none; anything else is refused with the accepted values', () => {
    expect(configuredTier({})).toBe('process')
    expect(configuredTier({ SANDBOX: '' })).toBe('process')
    expect(configuredTier({ SANDBOX: 'docker' })).toBe('docker')
    expect(configuredTier({ SANDBOX: 'none' })).toBe('none')
    expect(() => configuredTier({ SANDBOX: 'off' })).toThrow(/SANDBOX=off .*process.*docker.*none/)
  })

  test('a host without bwrap, prlimit, or (as root) setpriv has no process tier: the message says what is missing and what to do', () => {
    expect(processTierProblem(WORKING, 'linux')).toBeUndefined()
    const noBwrap = processTierProblem(
      { ...WORKING, bwrap: undefined, bwrapProblem: 'bwrap is not at /usr/bin/bwrap (apt-get install bubblewrap)' },
      'linux',
    )
    expect(noBwrap).toMatch(/apt-get install bubblewrap.*SANDBOX=docker/)
    expect(processTierProblem({ ...WORKING, prlimit: undefined }, 'linux')).toMatch(
      /prlimit is missing \(apt-get install util-linux\)/,
    )
    expect(processTierProblem({ ...WORKING, setpriv: undefined }, 'linux')).toMatch(/setpriv is missing/)
    expect(processTierProblem({ ...WORKING, setpriv: undefined, root: false }, 'linux')).toBeUndefined()
  })

  test('SANDBOX=none as root needs kill, which ends what a program leaves running: without it, one message naming it', () => {
    expect(unsandboxedProblem(WORKING)).toBeUndefined()
    expect(unsandboxedProblem({ ...WORKING, kill: undefined })).toMatch(/kill is not at .*apt-get install procps/)
    expect(unsandboxedProblem({ ...WORKING, kill: undefined, root: false })).toBeUndefined()
  })

  test('on macOS and Windows the message points to SANDBOX=docker', () => {
    for (const platform of ['darwin', 'win32'] as const)
      expect(processTierProblem({ ...WORKING, bwrap: undefined }, platform)).toMatch(
        new RegExp(`${platform}.*SANDBOX=docker`),
      )
  })

  test('SANDBOX=none is ready anywhere, named unsandboxed; an unreachable engine is one message naming it', async () => {
    expect(await tierReadiness({ SANDBOX: 'none' })).toEqual({ description: UNSANDBOXED })
    const saved = process.env['DOCKER_HOST']
    process.env['DOCKER_HOST'] = 'unix:///nonexistent/testbench-docker.sock'
    try {
      const readiness = await tierReadiness({ SANDBOX: 'docker' })
      expect(readiness).toEqual({
        problem: expect.stringMatching(
          /SANDBOX=docker: no container engine answers at unix:\/\/\/nonexistent\/testbench-docker\.sock/,
        ),
      })
    } finally {
      if (saved === undefined) delete process.env['DOCKER_HOST']
      else process.env['DOCKER_HOST'] = saved
    }
  })
})

describe('sandbox tier: in the reports', () => {
  const record = (sandbox: string | undefined, index: number): ItemRecord => ({
    suite: 'euler',
    itemId: `000${index}`,
    model: 'm',
    provider: 'replay',
    sample: 0,
    outcome: 'passed',
    variant: 'python',
    ...(sandbox === undefined ? {} : { sandbox }),
  })

  test('a report records the tier its programs ran in', () => {
    const report = buildRunReport(
      [record('process (bubblewrap 0.8.0)', 1), record('process (bubblewrap 0.8.0)', 2)],
      [],
      { complete: true, endedAt: new Date(0) },
    )
    expect(report.sandbox).toEqual(['process (bubblewrap 0.8.0)'])
    expect(report.unsandboxed).toBe(false)
    expect(summaryText(report)).toMatch(/sandbox: process \(bubblewrap 0\.8\.0\)/)
    expect(summaryText(report)).not.toMatch(/UNSANDBOXED/)
  })

  test('a run with SANDBOX=none is marked unsandboxed in its JSON, its summary and the leaderboard', () => {
    const report = buildRunReport([record(UNSANDBOXED, 1), record(UNSANDBOXED, 2)], [], {
      complete: true,
      endedAt: new Date(0),
    })
    expect(report.unsandboxed).toBe(true)
    expect(JSON.parse(JSON.stringify(report))).toMatchObject({ unsandboxed: true, sandbox: [UNSANDBOXED] })
    expect(summaryText(report).split('\n')[0]).toMatch(/UNSANDBOXED/)
    const demo = buildRunReport([{ ...record(UNSANDBOXED, 1), suite: 'demo' }], [], {
      complete: true,
      endedAt: new Date(0),
    })
    expect(leaderboardMarkdown('demo', [{ file: 'x.json', report: demo }])).toMatch(/\| m \(UNSANDBOXED\) \|/)
  })
})
