/**
 * One agent episode: a fresh container of the instance's image, mini-swe-agent's loop with every command run in
 * it, the container removed afterwards whatever happened (a cancelled or crashed run: see episode-container.ts).
 */
import type Docker from 'dockerode'
import { runAgent, type AgentRun, type AgentSetup } from './agent-loop.ts'
import { EpisodeContainer, type EpisodeLimits } from './episode-container.ts'

/** What an episode's container may use when nothing else is said (TESTBENCH_SWEBENCH_MEMORY sets the memory). */
export const EPISODE_LIMITS: EpisodeLimits = {
  memoryBytes: 4096 * 1024 * 1024,
  pids: 1024,
  fileBytes: 1024 * 1024 * 1024,
  diskBytes: 4096 * 1024 * 1024,
  network: 'none',
}

export interface EpisodeSetup extends Omit<AgentSetup, 'execute'> {
  image: string
  limits: EpisodeLimits
  signal?: AbortSignal
  onPulled?: (image: string) => void
  /** Told the container's id once it runs (tests watch it). */
  onContainer?: (id: string) => void
}

export async function runEpisode(docker: Docker, setup: EpisodeSetup): Promise<AgentRun> {
  const container = await EpisodeContainer.start(docker, {
    image: setup.image,
    limits: setup.limits,
    ...(setup.onPulled ? { onPulled: setup.onPulled } : {}),
  })
  setup.onContainer?.(container.id)
  const { config } = setup
  try {
    return await runAgent({
      ...setup,
      execute: (command) =>
        container.run(
          { command, cwd: config.cwd, env: config.env, timeoutSeconds: config.timeoutSeconds },
          setup.signal,
        ),
      environmentExceeded: () => container.diskExceeded(),
    })
  } finally {
    await container.close()
  }
}
