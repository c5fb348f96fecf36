// npm run bench:swebench-agent: what one bash command of the SWE-bench agent costs the harness, against the bare
// `docker exec` mini-swe-agent runs per command, on the same episode container, interleaved command by command:
// - bare: `docker exec -w /testbed -e …  <container> bash -c <command>` spawned from here (the docker CLI, or
//   podman's when there is no docker; both talk to DOCKER_HOST), as mini-swe-agent's DockerEnvironment runs it;
// - harness: EpisodeContainer.run (exec create, start, stream, inspect, and the disk check after the command).
// Prints medians and min–max per command and the ratio harness/bare (goal ≤ 1.2).
// Needs the synthetic instance's image (.ci/swebench-setup.sh). BENCH_ROUNDS (default 3), BENCH_COMMANDS (default 20 per round).
import { execa } from 'execa'
import { loadavg } from 'node:os'
import { EPISODE_LIMITS } from '../../suites/swebench/agent/agent-episode.ts'
import { connectEngine } from '../../suites/swebench/evaluation/container-engine.ts'
import { EpisodeContainer } from '../../suites/swebench/agent/episode-container.ts'
import { TOOLS_CONFIG } from '../../suites/swebench/agent/mini-swe-agent-config.ts'
import { refuseArguments } from '../script-usage.ts'

const USAGE = `usage: npm run bench:swebench-agent
What one bash command of the SWE-bench agent costs, against a bare \`docker exec\`. Needs the image that
.ci/swebench-setup.sh builds. Environment: BENCH_ROUNDS (default 3), BENCH_COMMANDS (default 20),
BENCH_IMAGE, DOCKER_HOST.`
refuseArguments(USAGE)

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const count = Number(process.env.BENCH_COMMANDS ?? 20)
const image = process.env.BENCH_IMAGE ?? 'localhost/testbench/sweb.eval.x86_64.testbench_1776_tinycalc-1:latest'
const COMMANDS = ['true', 'ls -la', 'grep -rn "def median" tinycalc', 'git status --short']

const cli = await execa('docker', ['version'], { reject: false }).then((result) =>
  result.exitCode === 0 ? 'docker' : 'podman',
)
const cliArgs = cli === 'podman' && process.env.DOCKER_HOST ? ['--url', process.env.DOCKER_HOST] : []
const docker = connectEngine()
const container = await EpisodeContainer.start(docker, {
  image,
  limits: { ...EPISODE_LIMITS, memoryBytes: 512 * 1024 * 1024 },
})
const { cwd, env, timeoutSeconds } = TOOLS_CONFIG

async function bare(command: string): Promise<string> {
  const flags = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`])
  const result = await execa(cli, [...cliArgs, 'exec', '-w', cwd, ...flags, container.id, 'bash', '-c', command], {
    reject: false,
    all: true,
    timeout: timeoutSeconds * 1000,
  })
  return result.all ?? ''
}

async function harness(command: string): Promise<string> {
  return (await container.run({ command, cwd, env, timeoutSeconds })).output
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

try {
  console.log(
    `bench:swebench-agent: ${cli} exec vs the harness, ${rounds} rounds × ${count} commands, image ${image}, load ${loadavg()[0]?.toFixed(2)}`,
  )
  const times = { bare: [] as number[], harness: [] as number[] }
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < count; index++) {
      const command = COMMANDS[index % COMMANDS.length] ?? 'true'
      // Alternate which side goes first, so that neither always meets a warmer engine.
      const order = (round + index) % 2 === 0 ? (['bare', 'harness'] as const) : (['harness', 'bare'] as const)
      const outputs: Record<string, string> = {}
      for (const way of order) {
        const started = performance.now()
        outputs[way] = way === 'bare' ? await bare(command) : await harness(command)
        times[way].push(performance.now() - started)
      }
      if (outputs.bare?.trimEnd() !== outputs.harness?.trimEnd())
        throw new Error(`${command}: the two ways printed different output:\n${outputs.bare}\n---\n${outputs.harness}`)
    }
  }
  for (const way of ['bare', 'harness'] as const) {
    const values = times[way]
    const spread = `min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)}`
    console.log(`  ${way.padEnd(8)} median ${median(values).toFixed(1)} ms, ${spread} (${values.length} commands)`)
  }
  const ratios = times.harness.map((time, index) => time / (times.bare[index] ?? time))
  console.log(
    `  harness/bare: ${(median(times.harness) / median(times.bare)).toFixed(2)}× (median of medians), ${median(ratios).toFixed(2)}× (median of paired ratios); goal ≤ 1.2×`,
  )
} finally {
  await container.close()
}
