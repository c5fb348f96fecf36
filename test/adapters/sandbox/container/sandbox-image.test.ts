import Docker from 'dockerode'
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import {
  DOCKERFILE_HASH_LABEL,
  dockerfileHash,
  ensureSandboxImage,
} from '../../../../adapters/sandbox/container/sandbox-image.ts'
import { skipWithoutTool, TOOLS } from '../../../support/required-tool.ts'

// Builds the shipped Dockerfile through the engine's API as a user's first container run does, under
// a name of its own. No registry is reachable here, so the base is the one .ci/start-podman.sh imports.
const BASE = process.env['TESTBENCH_SANDBOX_BASE_IMAGE'] || 'localhost/testbench/base:bookworm'
const docker = new Docker()
const image = `localhost/testbench/sandbox-build-test-${randomBytes(4).toString('hex')}:bookworm`

async function engineAndBase(): Promise<string | undefined> {
  try {
    await docker.ping()
  } catch (error) {
    return `no engine at ${process.env['DOCKER_HOST'] ?? 'the default socket'}: ${(error as Error).message}`
  }
  return docker
    .getImage(BASE)
    .inspect()
    .then(
      () => undefined,
      () => `the base image ${BASE} is missing`,
    )
}

// Removing a large image takes podman more than the default 10 s on a busy machine.
afterAll(async () => {
  await docker
    .getImage(image)
    .remove({ force: true })
    .catch(() => undefined)
}, 120_000)

test(
  'a missing sandbox image is built from the shipped Dockerfile, labelled with its hash, once',
  { timeout: 900_000 },
  async (context) => {
    skipWithoutTool(context, TOOLS.containerEngine, await engineAndBase())
    const lines: string[] = []
    await ensureSandboxImage({ docker, image, base: BASE, log: (line) => lines.push(line) })
    const built = await docker.getImage(image).inspect()
    expect(built.Config.Labels?.[DOCKERFILE_HASH_LABEL]).toBe(dockerfileHash())
    expect(built.Config.Labels?.['testbench.languages']).toContain('python')
    expect(lines[0]).toContain(`building ${image}`)

    const again: string[] = []
    await ensureSandboxImage({ docker, image, base: BASE, log: (line) => again.push(line) })
    expect(again, 'an image built from this Dockerfile is reused').toEqual([])
  },
)

test('a failed build says why and what to do', { timeout: 120_000 }, async (context) => {
  skipWithoutTool(context, TOOLS.containerEngine, await engineAndBase())
  const missingBase = `localhost/testbench/no-such-base-${randomBytes(4).toString('hex')}:none`
  const failing = `localhost/testbench/sandbox-build-fails-${randomBytes(4).toString('hex')}:bookworm`
  await expect(ensureSandboxImage({ docker, image: failing, base: missingBase, log: () => undefined })).rejects.toThrow(
    new RegExp(
      `Building the sandbox image ${failing.replace(/[.]/g, '\\.')} on .*failed[\\s\\S]*TESTBENCH_SANDBOX_BASE_IMAGE`,
    ),
  )
})
