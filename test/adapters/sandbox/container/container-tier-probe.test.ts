import { describe, expect, test } from 'vitest'
import { probeLacks, type ProbeRequest } from '../../../../adapters/sandbox/container/container-tier-probe.ts'

const request: ProbeRequest = {
  uid: 65534,
  processes: 64,
  memoryBytes: 768 * 1024 * 1024,
  fileName: 'probe.txt',
  fileText: 'probe-1',
  workDir: '/work',
}

/** What the probe script prints in a container that has every protection (as seen on podman 4.3 and Docker 20.10 here). */
const EVERYTHING = [
  'Seccomp:\t2',
  'NoNewPrivs:\t1',
  'CapEff:\t0000000000000000',
  'uid: 65534',
  'pids: 64',
  `memory: ${768 * 1024 * 1024}`,
  'interfaces: lo ',
  'file: probe-1',
  'root: read-only',
  'work: runs programs',
  'user namespaces: refused',
].join('\n')

function without(line: string, instead: string): string {
  return EVERYTHING.split('\n')
    .map((seen) => (seen.startsWith(line) ? instead : seen))
    .join('\n')
}

describe('what an engine lacks, from the probe container', () => {
  test('an engine with every protection lacks nothing', () => {
    expect(probeLacks(EVERYTHING, request)).toEqual([])
  })

  test.for([
    ['Seccomp', 'Seccomp:\t0', /without the seccomp profile/],
    ['NoNewPrivs', 'NoNewPrivs:\t0', /no-new-privileges/],
    ['CapEff', 'CapEff:\t00000000a80425fb', /capabilities are left/],
    ['uid', 'uid: 0', /do not run as uid 65534/],
    ['pids', 'pids: max', /no pids limit .*max/],
    ['memory', 'memory: 9223372036854771712', /no memory limit/],
    ['interfaces', 'interfaces: eth0 lo ', /network interfaces besides lo/],
    ['file', 'file: ', /did not arrive/],
    ['root', 'root: writable', /image is writable/],
    ['work', 'work: cannot run programs', /cannot be run from \/work/],
    ['user namespaces', 'user namespaces: allowed', /user namespaces/],
  ] as const)('%s missing is named', ([line, instead, message]) => {
    const lacks = probeLacks(without(line, instead), request)
    expect(lacks).toHaveLength(1)
    expect(lacks[0]).toMatch(message)
  })

  test('a script that printed nothing (the shell could not run) lacks everything, never nothing', () => {
    expect(probeLacks('', request).length).toBeGreaterThanOrEqual(10)
  })
})
