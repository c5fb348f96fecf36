import type { JsonValue } from '../../../adapters/models/model-adapter.ts'
import { toolFailed, toolSucceeded, type ToolAnswer } from '../../../harness/conversation/tool.ts'
import { pythonJsonDumps } from './tool-result.ts'

const STATUSES = ['pending', 'in_progress', 'completed']

/** PE-Bench's `update_plan`: upstream's checks of the plan, in its words, and its summary as JSON. The plan changes nothing else. */
export function updatePlan(plan: JsonValue | undefined, explanation: JsonValue | undefined): ToolAnswer {
  if (!Array.isArray(plan)) return toolFailed('plan must be an array.')
  if (plan.length === 0) return toolFailed('plan must contain at least one step.')
  if (plan.length > 8) return toolFailed('plan must contain at most 8 steps.')
  const steps: Array<{ step: string; status: string }> = []
  const warnings: string[] = []
  const seen = new Set<string>()
  for (const [index, item] of plan.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return toolFailed(`plan[${index}] must be an object.`)
    const { step, status } = item
    if (typeof step !== 'string' || step.trim() === '')
      return toolFailed(`plan[${index}].step must be a non-empty string.`)
    if (typeof status !== 'string' || !STATUSES.includes(status))
      return toolFailed(`plan[${index}].status must be one of: pending, in_progress, completed.`)
    const text = step.trim()
    if (seen.has(text.toLowerCase())) warnings.push(`Duplicate step text: ${text}`)
    seen.add(text.toLowerCase())
    steps.push({ step: text, status })
  }
  if (steps.filter((step) => step.status === 'in_progress').length > 1)
    return toolFailed('At most one plan step can be in_progress.')
  const said = explanation ?? ''
  if (typeof said !== 'string') return toolFailed('explanation must be a string.')
  const completed = steps.filter((step) => step.status === 'completed').length
  const inProgress = steps.find((step) => step.status === 'in_progress')?.step ?? ''
  if (inProgress === '' && completed < steps.length) warnings.push('No step is currently marked in_progress.')
  return toolSucceeded(
    pythonJsonDumps({
      ok: true,
      explanation: said,
      plan: steps,
      summary: { step_count: steps.length, completed_count: completed, in_progress_step: inProgress },
      warnings,
    }),
  )
}
