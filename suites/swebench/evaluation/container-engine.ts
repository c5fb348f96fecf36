/**
 * The Docker-compatible engine the evaluations run on: Docker, or podman's
 * socket, named by DOCKER_HOST (`unix:///path/podman.sock`, `tcp://host:2375`…);
 * without it, the usual local sockets of Docker and of podman.
 */
import { existsSync } from 'node:fs'
import Docker from 'dockerode'

const LOCAL_SOCKETS = ['/var/run/docker.sock', '/run/podman/podman.sock']

export function connectEngine(env: NodeJS.ProcessEnv = process.env): Docker {
  if (env.DOCKER_HOST) return new Docker()
  const socketPath = LOCAL_SOCKETS.find((path) => existsSync(path)) ?? LOCAL_SOCKETS[0]
  return new Docker({ socketPath })
}

/** Why the engine cannot be used (one line for a skip message), or undefined when it answers. */
export async function engineUnavailable(docker: Docker, timeoutMs = 3000): Promise<string | undefined> {
  const where = process.env.DOCKER_HOST
    ? `DOCKER_HOST=${process.env.DOCKER_HOST}`
    : `no DOCKER_HOST, tried ${LOCAL_SOCKETS.join(' and ')}`
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
    return undefined
  } catch (error) {
    return `no container engine answers (${where}: ${error instanceof Error ? error.message : String(error)}); start Docker or podman's socket and set DOCKER_HOST`
  } finally {
    clearTimeout(timer)
  }
}
