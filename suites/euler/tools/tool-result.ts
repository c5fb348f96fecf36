import type { ToolAnswer } from '../../../harness/conversation/tool.ts'

/**
 * A tool's answer as upstream sends it back to the model: `json.dumps({"tool", "exit_code", "stdout",
 * "stderr"})`, in Python's layout (`", "` and `": "` between items, every character outside printable
 * ASCII escaped), so that the model reads the same bytes.
 */
export function upstreamToolResult(tool: string, answer: ToolAnswer): string {
  return pythonJsonDumps({ tool, exit_code: answer.ok ? 0 : 1, stdout: answer.output, stderr: answer.error })
}

type Dumpable = string | number | boolean | null | Dumpable[] | { [key: string]: Dumpable }

/** Python's `json.dumps(value)` with its defaults (`ensure_ascii=True`, separators `", "` and `": "`). */
export function pythonJsonDumps(value: Dumpable): string {
  if (typeof value === 'string') return pythonString(value)
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonString(key)}: ${pythonJsonDumps(item)}`)
    .join(', ')}}`
}

function pythonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
