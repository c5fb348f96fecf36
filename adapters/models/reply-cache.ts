import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { CacheMode } from './knobs.ts'
import type { ChatReply, ChatRequest, ModelDetails } from './model-adapter.ts'

interface CachedModel {
  provider: string
  model: string
  details: ModelDetails
}

type Ask = (request: ChatRequest) => Promise<ChatReply>

/**
 * Replies on disk, one file per request, keyed by provider, model, the model's
 * digest where the provider reports one, parameters (the thinking switch among them),
 * messages, tools and sample index.
 * Files are written atomically, so a run killed at any moment leaves only whole
 * replies, and the rerun asks only for what is missing.
 */
export class ReplyCache {
  readonly directory: string
  readonly mode: CacheMode
  private readonly warn: (message: string) => void
  private readonly warned = new Set<string>()

  /** `warn` is told, once per file, of an entry that cannot be used or a reply that cannot be stored. */
  constructor(
    directory: string,
    mode: CacheMode,
    warn: (message: string) => void = (message) => console.warn(`testbench: ${message}`),
  ) {
    this.directory = directory
    this.mode = mode
    this.warn = warn
  }

  wrap(model: CachedModel, ask: Ask): Ask {
    if (this.mode === 'off') return ask
    return async (request) => {
      const file = this.fileFor(model, request)
      if (this.mode === 'on') {
        const stored = await readStored(file)
        if ('reply' in stored) return stored.reply
        if ('unusable' in stored)
          this.warnOnce(
            file,
            `the cached reply ${file} ${stored.unusable}; asking the model again, and the new reply replaces it.`,
          )
      }
      const reply = await ask(request)
      try {
        await writeAtomically(file, JSON.stringify({ key: keyFields(model, request), reply }, null, 1))
      } catch (error) {
        // The reply is paid for: it is still used, only not kept for a rerun.
        this.warnOnce(
          this.directory,
          `a reply cannot be stored in the cache ${file} (${codeOf(error)}), so a rerun will ask for it again: make TESTBENCH_CACHE_DIR=${this.directory} writable.`,
        )
      }
      return reply
    }
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return
    this.warned.add(key)
    this.warn(message)
  }

  fileFor(model: CachedModel, request: ChatRequest): string {
    const hash = createHash('sha256')
      .update(JSON.stringify(keyFields(model, request)))
      .digest('hex')
    return join(this.directory, 'replies', model.provider, safeName(model.model), hash.slice(0, 2), `${hash}.json`)
  }
}

function keyFields(model: CachedModel, request: ChatRequest): unknown {
  return {
    provider: model.provider,
    model: model.model,
    digest: model.details.digest ?? null,
    // The API an `openai:` model was asked through, when not Chat Completions: the keys of replies stored before stay the same.
    ...(model.details.api === undefined || model.details.api === 'chat' ? {} : { api: model.details.api }),
    mode: request.mode ?? 'chat',
    params: request.params,
    messages: request.messages,
    // Only when there are tools, so that the keys of replies stored before tools existed stay the same.
    ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: request.tools }),
    sample: request.item.sample,
  }
}

type Stored = { reply: ChatReply } | { missing: true } | { unusable: string }

/** A stored reply; a missing file is a plain miss, an unreadable or corrupt one a miss that says why. */
async function readStored(file: string): Promise<Stored> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return { missing: true }
    return { unusable: `cannot be read (${codeOf(error)})` }
  }
  let stored: unknown
  try {
    stored = JSON.parse(text)
  } catch (error) {
    return { unusable: `is corrupt (${(error as Error).message})` }
  }
  const reply = typeof stored === 'object' && stored !== null && 'reply' in stored ? stored.reply : undefined
  if (isReply(reply)) return { reply }
  return { unusable: 'is corrupt (no reply with a text in it)' }
}

function isReply(value: unknown): value is ChatReply {
  return (
    typeof value === 'object' &&
    value !== null &&
    'text' in value &&
    typeof value.text === 'string' &&
    'latencyMs' in value &&
    typeof value.latencyMs === 'number'
  )
}

function codeOf(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : String(error)
}

export async function writeAtomically(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, content)
  await rename(temporary, file)
}

function safeName(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_')
}
