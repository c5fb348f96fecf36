/**
 * Which sandbox tier a run uses (SANDBOX), whether it works on this host, and how the reports name it.
 * A run that executes model code checks this before its first item: no working tier is one error,
 * never programs run unsandboxed; only SANDBOX=none runs them without one, under a banner.
 */
import { DockerSandbox } from './container/docker-sandbox.ts'
import {
  hostProtections,
  processTierProblem,
  unsandboxedProblem,
  type HostProtections,
} from './process/host-protections.ts'

import { SANDBOX, type TierName } from './knobs.ts'

export { TIERS, type TierName } from './knobs.ts'

/** How the reports and the summary mark a run whose programs ran without a sandbox. */
export const UNSANDBOXED = 'none (unsandboxed)'

export const UNSANDBOXED_BANNER = [
  '',
  '!!! SANDBOX=none: model-written programs run UNSANDBOXED, with your network, your files and your',
  "!!! user's rights. Their verdicts can be forged and they can harm this machine. The reports of this",
  '!!! run are marked "unsandboxed". Unset SANDBOX to use the process sandbox (bwrap), or SANDBOX=docker.',
  '',
].join('\n')

/** SANDBOX's value; unset or empty is `process`. */
export function configuredTier(env: NodeJS.ProcessEnv = process.env): TierName {
  return SANDBOX.read(env)
}

/** The process tier as the reports name it: `process (bubblewrap 0.8.0)`. */
export function processTierDescription(protections: HostProtections = hostProtections()): string {
  return `process (${protections.bwrapVersion ?? 'bwrap'})`
}

/**
 * Whether the configured tier can run programs here: its description for the reports, or one
 * message that says what is missing and what to do (install it, or another SANDBOX).
 */
export async function tierReadiness(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<{ description: string } | { problem: string }> {
  const tier = configuredTier(env)
  if (tier === 'none') {
    const problem = unsandboxedProblem(hostProtections())
    return problem === undefined ? { description: UNSANDBOXED } : { problem: `SANDBOX=none: ${problem}.` }
  }
  if (tier === 'process') {
    const protections = hostProtections()
    const problem = processTierProblem(protections, platform)
    return problem === undefined
      ? { description: processTierDescription(protections) }
      : { problem: `SANDBOX=process: ${problem}.` }
  }
  const docker = new DockerSandbox({ host: env['DOCKER_HOST'] })
  const unreachable = await docker.unreachable()
  if (unreachable !== undefined)
    return {
      problem: `SANDBOX=docker: ${unreachable}. Or use the process sandbox (unset SANDBOX) on Linux with bwrap.`,
    }
  return { description: docker.description() }
}
