import { DockerSandbox } from '../../adapters/sandbox/container/docker-sandbox.ts'
import { TOOLS, type Tool } from './required-tool.ts'

/**
 * The engines the container tier's tests run on: the one at DOCKER_HOST (podman in CI, .ci/start-podman.sh)
 * and a Docker Engine at TESTBENCH_DOCKER_ENGINE_HOST (.ci/start-docker.sh), each skipped, by name, where missing.
 */
export interface ContainerEngine {
  variable: 'DOCKER_HOST' | 'TESTBENCH_DOCKER_ENGINE_HOST'
  host: string | undefined
  tool: Tool
}

export const CONTAINER_ENGINES: readonly ContainerEngine[] = [
  {
    variable: 'DOCKER_HOST',
    host: process.env['DOCKER_HOST'] ?? 'unix:///var/run/docker.sock',
    tool: TOOLS.containerEngine,
  },
  {
    variable: 'TESTBENCH_DOCKER_ENGINE_HOST',
    host: process.env['TESTBENCH_DOCKER_ENGINE_HOST'],
    tool: TOOLS.dockerEngine,
  },
]

/** Why the container tier cannot be tested on this engine (its variable unset, no answer, no image, a protection lacking), or undefined. */
export async function engineMissing(engine: ContainerEngine): Promise<string | undefined> {
  if (engine.host === undefined) return `${engine.variable} is not set`
  return new DockerSandbox({ host: engine.host }).unreachable()
}
