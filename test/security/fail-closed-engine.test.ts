import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DEFAULT_SANDBOX_IMAGE } from '../../adapters/sandbox/container/docker-sandbox.ts'
import { startVitestRun } from '../support/run-vitest.ts'
import { CONTAINER_ENGINES, engineMissing } from '../support/container-engines.ts'
import { skipWithoutTool } from '../support/required-tool.ts'
import { eulerReplay, NO_SANDBOX_CAN_RUN } from './euler-replay.ts'

describe('fail closed: a container engine that answers but cannot run the tier', () => {
  // An engine that answers but cannot do what the tier needs (here: the image it is given has no tar to unpack
  // the program's files with) is found by the up-front probe, before any item, not by a run of infra_error items.
  test.for(CONTAINER_ENGINES)(
    'an engine at $variable that answers but cannot run the tier stops the run before its first item, with one message',
    { timeout: 240_000 },
    async (engine, context) => {
      skipWithoutTool(context, engine.tool, await engineMissing(engine))
      const docker = new (await import('dockerode')).default({
        socketPath: (engine.host ?? '').replace(/^unix:\/\//, ''),
      })
      const image = `localhost/testbench/sandbox-without-tar:${process.pid}`
      const maker = await docker.createContainer({
        Image: DEFAULT_SANDBOX_IMAGE,
        Cmd: ['rm', '-f', '/usr/bin/tar', '/bin/tar'],
        User: '0:0',
        HostConfig: { NetworkMode: 'none' },
      })
      try {
        await maker.start()
        await maker.wait()
        await maker.commit({ repo: 'localhost/testbench/sandbox-without-tar', tag: String(process.pid) })
      } finally {
        await maker.remove({ force: true })
      }
      try {
        const dir = mkdtempSync(join(tmpdir(), 'fail-closed-'))
        const { code, output } = await startVitestRun(['--project', 'suites', 'suites/euler'], {
          ...eulerReplay(dir),
          SANDBOX: 'docker',
          DOCKER_HOST: engine.host ?? '',
          TESTBENCH_SANDBOX_IMAGE: image,
        }).done
        expect(code, output).not.toBe(0)
        expect(output).toMatch(NO_SANDBOX_CAN_RUN)
        expect(output).toMatch(
          new RegExp(
            `SANDBOX=docker: the container engine at ${engine.host} \\((podman|Docker Engine) [^)]*\\) answers but cannot run the container tier with image ${image}: a container made as the tier makes them failed \\(unpacking the program's files into /tmp/work failed`,
          ),
        )
        expect(existsSync(join(dir, 'reports', 'euler'))).toBe(false)
        expect(output).not.toMatch(/0001/)
      } finally {
        await docker.getImage(image).remove({ force: true })
      }
    },
  )
})
