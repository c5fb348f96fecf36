import type { GateVerdict } from './gate.ts'
import { gateText } from './gate.ts'

/** At most this many item annotations (GitHub shows ten of each kind per step). */
const MAX_ITEM_ANNOTATIONS = 50

/**
 * The gate's verdict as GitHub Actions workflow commands. The verdict is one annotation (a notice
 * when it passed, an error when it failed) that carries every reason. Items are annotated by what
 * the gate makes of them: when it failed, an error for each item it blames (pass → fail flips,
 * baseline items that did not run, provider and harness errors, items without an outcome); when it
 * passed, a warning for each pass → fail flip, and nothing for the other wrong answers, which
 * the gate has weighed and which are not errors of the job.
 */
export function gateAnnotations(verdict: GateVerdict): string[] {
  const [, ...reasons] = gateText(verdict).split('\n')
  const title = `Model gate ${verdict.passed ? 'passed' : 'failed'} (${verdict.configFile})`
  const lines = [
    workflowCommand(verdict.passed ? 'notice' : 'error', title, reasons.map((line) => line.trimStart()).join('\n')),
  ]
  const items: string[] = []
  for (const group of verdict.groups) {
    const where = `${group.suite} · ${group.model}`
    const baseline = group.baseline
    if (verdict.passed) {
      for (const item of baseline?.passToFail ?? [])
        items.push(
          workflowCommand(
            'warning',
            `${where}: ${item}`,
            `passed in the baseline ${baseline?.file}, fails now; the gate weighed it and passed.`,
          ),
        )
      continue
    }
    for (const item of baseline?.passToFail ?? [])
      items.push(workflowCommand('error', `${where}: ${item}`, `passed in the baseline ${baseline?.file}, fails now.`))
    for (const item of baseline?.missing ?? [])
      items.push(workflowCommand('error', `${where}: ${item}`, `is in the baseline ${baseline?.file} but did not run.`))
    for (const error of group.errors)
      items.push(
        workflowCommand(
          'error',
          `${where}: ${error.itemId}`,
          `${error.outcome}: not the model's fault, but the run cannot judge it.${error.output ? `\n${error.output}` : ''}`,
        ),
      )
    for (const item of group.unfinished)
      items.push(
        workflowCommand('error', `${where}: ${item}`, 'has no outcome: it stopped before it finished, or was skipped.'),
      )
  }
  if (items.length > MAX_ITEM_ANNOTATIONS) {
    const rest = items.length - MAX_ITEM_ANNOTATIONS
    return [
      ...lines,
      ...items.slice(0, MAX_ITEM_ANNOTATIONS),
      workflowCommand(
        verdict.passed ? 'warning' : 'error',
        'Model gate',
        `${rest} more item(s): see the job summary and gate.json.`,
      ),
    ]
  }
  return [...lines, ...items]
}

/** `::error title=…::message`, escaped as the Actions toolkit does. */
export function workflowCommand(command: 'notice' | 'warning' | 'error', title: string, message: string): string {
  return `::${command} title=${escapeProperty(title)}::${escapeData(message)}`
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
