import { describe, expect, test } from 'vitest'
import { printMarker } from '../../../adapters/sandbox/languages.ts'
import { ProcessSandbox } from '../../../adapters/sandbox/process/process-sandbox.ts'
import {
  formatSelfCheck,
  HOSTILE_CHECK_PROGRAM,
  hostileCheck,
  selfCheck,
} from '../../../adapters/sandbox/self-check.ts'
import { CONTAINER_ENGINES, engineMissing } from '../../support/container-engines.ts'
import { skipWithoutTool, TOOLS } from '../../support/required-tool.ts'
import { isolationMissing } from '../../support/sandbox-available.ts'

describe('npm run sandbox:check', () => {
  test.for(CONTAINER_ENGINES)(
    'SANDBOX=docker on the engine at $variable: tier, engine and version, both programs pass',
    { timeout: 180_000 },
    async (engine, context) => {
      skipWithoutTool(context, engine.tool, await engineMissing(engine))
      const check = await selfCheck({ ...process.env, SANDBOX: 'docker', DOCKER_HOST: engine.host })
      const printed = formatSelfCheck(check)
      expect(check.passed, printed).toBe(true)
      expect(printed).toMatch(/^tier: {4}docker$/m)
      expect(printed).toMatch(new RegExp(`^engine: {2}(podman|Docker Engine) \\d+\\.\\d+\\S* at ${engine.host}$`, 'm'))
      expect(printed).toMatch(/^pass {4}a known program .*: passed in \d+ ms$/m)
      expect(printed).toMatch(/^pass {4}a known hostile program .*: held: runtime_error, nothing escaped$/m)
    },
  )

  test('SANDBOX=process: the same two programs in bwrap', { timeout: 60_000 }, async (context) => {
    skipWithoutTool(context, TOOLS.bwrap, isolationMissing())
    const check = await selfCheck({ ...process.env, SANDBOX: 'process' })
    expect(check.passed, formatSelfCheck(check)).toBe(true)
    expect(check.engine).toMatch(/^bubblewrap \d/)
  })

  test('an engine that does not answer fails the check with the one message saying so', async () => {
    const check = await selfCheck({
      ...process.env,
      SANDBOX: 'docker',
      DOCKER_HOST: 'unix:///nonexistent/testbench-no-engine.sock',
    })
    expect(check.passed).toBe(false)
    expect(formatSelfCheck(check)).toMatch(
      /no container engine answers at unix:\/\/\/nonexistent\/testbench-no-engine\.sock[\s\S]*sandbox:check FAILED/,
    )
  })

  test('the hostile program is caught where nothing holds it: unsandboxed as root, it passes and the check fails', async (context) => {
    if (process.getuid?.() !== 0)
      context.skip('needs root, for whom writing the image escapes wherever the network and user namespaces do not')
    const unsandboxed = new ProcessSandbox({ unsandboxed: true })
    const result = await unsandboxed.run({
      language: 'python',
      files: (marker) => ({ 'main.py': `${HOSTILE_CHECK_PROGRAM}${printMarker('python', marker)}\n` }),
    })
    await unsandboxed.close()
    expect(result.stdout.text).toMatch(/^escaped: (?!nothing)/m)
    expect(hostileCheck(result).passed).toBe(false)
  })
})
