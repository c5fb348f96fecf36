import type { JsonValue } from '../../../adapters/models/model-adapter.ts'
import {
  toolFailed,
  toolSucceeded,
  type ConversationTool,
  type ToolAnswer,
  type ToolArguments,
} from '../../../harness/conversation/tool.ts'
import { calculate } from './calculator.ts'
import { TOOL_DEFINITIONS } from './definitions.ts'
import { SYNTAX_CHECK_LANGUAGES, syntaxCheck, type SyntaxCheckLanguage } from './syntax-check.ts'
import { updatePlan } from './update-plan.ts'
import { normalizeWorkspacePath, Workspace } from './workspace.ts'

/** What `deliver_code` handed in: the file's path and content, judged as a one-shot program is. */
export interface Delivery {
  path: string
  content: string
}

/** One problem's agent: its workspace, its nine tools, and the delivery once `deliver_code` succeeds. */
export class EulerAgent {
  readonly workspace = new Workspace()
  delivery: Delivery | undefined
  readonly tools: readonly ConversationTool[]

  constructor() {
    const handlers: Record<string, (args: ToolArguments) => Promise<ToolAnswer> | ToolAnswer> = {
      list_files: () => toolSucceeded(this.workspace.list().join('\n')),
      read_file: (args) =>
        withPath(args.path, (path) =>
          this.workspace.read(path) === undefined ? notFound(path) : toolSucceeded(this.workspace.read(path) ?? ''),
        ),
      write_file: (args) =>
        withPath(args.path, (path) => {
          const refused = this.workspace.write(path, text(args.content))
          return refused === undefined ? toolSucceeded(`Wrote ${path}`) : toolFailed(refused)
        }),
      delete_file: (args) =>
        withPath(args.path, (path) => {
          if (!this.workspace.has(path)) return notFound(path)
          this.workspace.delete(path)
          return toolSucceeded(`Deleted ${path}`)
        }),
      rename_file: (args) =>
        withPath(args.source_path, (source) =>
          withPath(args.destination_path, (destination) => {
            if (!this.workspace.has(source)) return notFound(source)
            if (this.workspace.has(destination)) return toolFailed(`Destination already exists: ${destination}`)
            this.workspace.rename(source, destination)
            return toolSucceeded(`Renamed ${source} to ${destination}`)
          }),
        ),
      syntax_check: (args) => this.syntaxCheck(args),
      calculator: (args) => calculate(text(args.expression)),
      update_plan: (args) => updatePlan(args.plan, args.explanation),
      deliver_code: (args) =>
        withPath(args.path, (path) => {
          const content = this.workspace.read(path)
          if (content === undefined) return notFound(path)
          this.delivery = { path, content }
          return toolSucceeded(`Delivered ${path}`, true)
        }),
    }
    this.tools = TOOL_DEFINITIONS.map((definition) => {
      const handler = handlers[definition.name]
      if (handler === undefined) throw new Error(`PE-Bench's tool ${definition.name} has no handler.`)
      return { definition, run: async (args: ToolArguments) => handler(args) }
    })
  }

  private async syntaxCheck(args: ToolArguments): Promise<ToolAnswer> {
    const language = text(args.language).trim().toLowerCase()
    if (!isSyntaxCheckLanguage(language)) return toolFailed('language must be one of: python, java, rust, clojure.')
    return withPath(args.path, (path) => {
      const code = this.workspace.read(path)
      return code === undefined ? notFound(path) : syntaxCheck(language, path, code)
    })
  }
}

function withPath<Answer extends ToolAnswer | Promise<ToolAnswer>>(
  value: JsonValue | undefined,
  use: (path: string) => Answer,
): Answer | ToolAnswer {
  const normalized = normalizeWorkspacePath(text(value))
  return 'error' in normalized ? toolFailed(normalized.error) : use(normalized.path)
}

function notFound(path: string): ToolAnswer {
  return toolFailed(`File not found: ${path}`)
}

/** A string argument (the schema check made sure of its type when present); absent is '', as upstream's `.get(…, "")`. */
function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : ''
}

function isSyntaxCheckLanguage(value: string): value is SyntaxCheckLanguage {
  return (SYNTAX_CHECK_LANGUAGES as readonly string[]).includes(value)
}
