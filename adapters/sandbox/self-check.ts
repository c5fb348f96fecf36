/**
 * `npm run sandbox:check`: whether the tier SANDBOX picks works on this machine, for a user who has just
 * installed Docker Desktop or podman (macOS, Windows) or bwrap (Linux). It runs one known program, which
 * must pass, and one known hostile program, which must not (nor end as our infra_error), in that tier.
 */
import { DockerSandbox } from './container/docker-sandbox.ts'
import { printMarker } from './languages.ts'
import { ProcessSandbox } from './process/process-sandbox.ts'
import type { RunResult, Sandbox } from './sandbox.ts'
import { configuredTier, tierReadiness, type TierName } from './sandbox-tier.ts'

export interface CheckLine {
  what: string
  passed: boolean
  detail: string
}

export interface SelfCheck {
  tier: TierName
  /** The tier as the reports name it, or the one message saying why it cannot run here. */
  description: string
  /** The engine and its version (`Docker Engine 27.3.1`, `podman 4.3.1`, `bubblewrap 0.8.0`). */
  engine: string
  checks: CheckLine[]
  passed: boolean
}

const KNOWN = `print(sum(i for i in range(10)))\n`

/** Tries what the tier must prevent; prints the marker (a pass) only if something got through. */
export const HOSTILE_CHECK_PROGRAM = `import ctypes, os, socket
escaped = []
for address in (('1.1.1.1', 53), ('127.0.0.1', 22)):
    try:
        socket.create_connection(address, timeout=2).close()
        escaped.append('network %s:%d' % address)
    except OSError:
        pass
try:
    open('/usr/testbench-self-check', 'w').close()
    escaped.append('the image is writable')
except OSError:
    pass
if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) == 0:
    escaped.append('a user namespace')
if os.getuid() == 0:
    escaped.append('runs as root')
escaped += ['the secret %s' % name for name in os.environ if 'KEY' in name or 'TOKEN' in name or 'SECRET' in name]
print('tried: network, writing the image, a user namespace, root, secrets')
print('escaped: ' + (', '.join(escaped) or 'nothing'))
if not escaped:
    raise SystemExit(1)
`

export async function selfCheck(env: NodeJS.ProcessEnv = process.env): Promise<SelfCheck> {
  const tier = configuredTier(env)
  if (tier === 'none')
    return {
      tier,
      description: 'SANDBOX=none runs programs unsandboxed: there is nothing to check.',
      engine: 'none',
      checks: [],
      passed: false,
    }
  const docker = tier === 'docker' ? new DockerSandbox({ host: env['DOCKER_HOST'] }) : undefined
  const sandbox: Sandbox = docker ?? new ProcessSandbox()
  try {
    const readiness = await tierReadiness(env)
    const engine =
      docker === undefined
        ? (sandbox.description().match(/\((.*)\)/)?.[1] ?? 'bwrap')
        : `${await docker.engine()} at ${docker.host}`
    if ('problem' in readiness) return { tier, description: readiness.problem, engine, checks: [], passed: false }
    const known = await sandbox.run({
      language: 'python',
      files: (marker) => ({ 'main.py': `${KNOWN}${printMarker('python', marker)}\n` }),
    })
    const hostile = await sandbox.run({
      language: 'python',
      files: (marker) => ({ 'main.py': `${HOSTILE_CHECK_PROGRAM}${printMarker('python', marker)}\n` }),
    })
    const checks = [knownCheck(known), hostileCheck(hostile)]
    return { tier, description: sandbox.description(), engine, checks, passed: checks.every((check) => check.passed) }
  } finally {
    await sandbox.close()
  }
}

function knownCheck(result: RunResult): CheckLine {
  const passed = result.outcome === 'passed' && result.stdout.text.startsWith('45\n')
  return {
    what: 'a known program (Python, prints 45)',
    passed,
    detail: passed
      ? `passed in ${result.wallMs} ms`
      : `${result.outcome}: ${result.reason} ${result.stderr.text.slice(0, 500)}`,
  }
}

export function hostileCheck(result: RunResult): CheckLine {
  const ran = result.stdout.text.includes('tried: ')
  const escaped = /escaped: (.*)/.exec(result.stdout.text)?.[1] ?? 'unknown'
  const passed = ran && result.outcome !== 'passed' && result.outcome !== 'infra_error'
  return {
    what: 'a known hostile program (network, writing the image, a user namespace, root, secrets)',
    passed,
    detail: passed
      ? `held: ${result.outcome}, nothing escaped`
      : ran
        ? `FAILED: ${result.outcome}, escaped: ${escaped}`
        : `FAILED: it did not run (${result.outcome}: ${result.reason})`,
  }
}

export function formatSelfCheck(check: SelfCheck): string {
  return [
    `tier:    ${check.tier}`,
    `engine:  ${check.engine}`,
    `sandbox: ${check.description}`,
    ...check.checks.map((line) => `${line.passed ? 'pass' : 'FAIL'}    ${line.what}: ${line.detail}`),
    check.passed
      ? `sandbox:check passed: SANDBOX=${check.tier} works here.`
      : `sandbox:check FAILED: SANDBOX=${check.tier} cannot run programs safely here.`,
  ].join('\n')
}
