/**
 * MODEL=reference on the bash-only track's text form: one reply whose fenced command writes the gold patch and
 * submits it at once, so that a perfect run scores perfectly through the agent, the container and the judge.
 * (The `tools` form has no reference: the reference model answers with text, not tool calls.)
 */
import { SUBMIT_MARKER } from './mini-swe-agent-config.ts'

export function referenceSubmission(patch: string): string {
  let delimiter = 'TESTBENCH_GOLD_PATCH'
  while (patch.split('\n').includes(delimiter)) delimiter += '_'
  const body = patch.endsWith('\n') ? patch : `${patch}\n`
  return (
    'THOUGHT: the known fix, submitted as it is.\n\n' +
    `\`\`\`mswea_bash_command\ncat <<'${delimiter}' > /tmp/reference.patch && echo ${SUBMIT_MARKER} && cat /tmp/reference.patch\n${body}${delimiter}\n\`\`\``
  )
}
