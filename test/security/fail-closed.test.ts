import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runSuiteForRecords, startVitestRun } from '../support/run-vitest.ts'
import { DEFAULT_SANDBOX_IMAGE } from '../../adapters/sandbox/docker-sandbox.ts'
import { CONTAINER_ENGINES, engineMissing } from '../support/container-engines.ts'
import { skipWithoutTool } from '../support/required-tool.ts'

const FIXTURE_DATASETS = fileURLToPath(new URL('../../fixtures/euler/datasets', import.meta.url))
const FIXTURE_SOLUTIONS_SHA256 = 'b3aeedb669617655a526e325a303cff999c6d8304aaa762ac47953ecb511d57f'
const FIXTURE_REPLIES = fileURLToPath(new URL('../../fixtures/euler/replies.jsonl', import.meta.url))
/** A tier that cannot work on any machine: a container engine at a socket that does not exist. */
const NO_TIER = { SANDBOX: 'docker', DOCKER_HOST: 'unix:///nonexistent/testbench-no-engine.sock' }

/** PE-Bench, python, problems 1–2, replayed from the fixture, writing into `dir`. */
function eulerReplay(dir: string): Record<string, string> {
  return {
    TESTBENCH_CACHE: 'off',
    TESTBENCH_CACHE_DIR: join(dir, 'cache'),
    TESTBENCH_REPORT_DIR: join(dir, 'reports'),
    MODEL: `replay:${FIXTURE_REPLIES}`,
    TESTBENCH_DATA_DIR: FIXTURE_DATASETS,
    TESTBENCH_EULER_SHA256: FIXTURE_SOLUTIONS_SHA256,
    TESTBENCH_EULER_LANGUAGES: 'python',
    TESTBENCH_EULER_PROBLEMS: '1-2',
  }
}

describe('fail closed: no working sandbox, no program runs', () => {
  test('a suite that runs programs stops before its first item with one message saying what is missing and what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fail-closed-'))
    const run = startVitestRun(['--project', 'suites', 'suites/euler'], { ...eulerReplay(dir), ...NO_TIER })
    const { code, output } = await run.done
    expect(code, output).not.toBe(0)
    expect(output).toMatch(
      /euler run\(s\) model-written programs, and no sandbox can run them here; nothing was asked or run/,
    )
    expect(output).toMatch(
      /SANDBOX=docker: no container engine answers at unix:\/\/\/nonexistent\/testbench-no-engine\.sock/,
    )
    // No item ran, so no report was written.
    expect(existsSync(join(dir, 'reports', 'euler'))).toBe(false)
    expect(output).not.toMatch(/0001/)
  })

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
        expect(output).toMatch(
          /euler run\(s\) model-written programs, and no sandbox can run them here; nothing was asked or run/,
        )
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

  test('a suite that runs no program (FaRel) runs without any sandbox', async () => {
    const { code, output, records } = await runSuiteForRecords('farel', {
      MODEL: 'reference',
      TESTBENCH_FAREL_PER_CLASS: '1',
      ...NO_TIER,
    })
    expect(code, output).toBe(0)
    expect(records.length).toBeGreaterThan(0)
    expect(records.every((record) => record.outcome === 'passed' && record.sandbox === undefined)).toBe(true)
  })
})
