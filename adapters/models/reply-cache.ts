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
 * digest where the provider reports one, parameters, messages and sample index.
 * Files are written atomically, so a run killed at any moment leaves only whole
 * replies, and the rerun asks only for what is missing.
 */
export class ReplyCache {
  readonly directory: string
  readonly mode: CacheMode

  constructor(directory: string, mode: CacheMode) {
    this.directory = directory
    this.mode = mode
  }

  wrap(model: CachedModel, ask: Ask): Ask {
    if (this.mode === 'off') return ask
    return async (request) => {
      const file = this.fileFor(model, request)
      if (this.mode === 'on') {
        const stored = await readStored(file)
        if (stored) return stored
      }
      const reply = await ask(request)
      await writeAtomically(file, JSON.stringify({ key: keyFields(model, request), reply }, null, 1))
      return reply
    }
  }

  fileFor(model: CachedModel, request: ChatRequest): string {
    const hash = createHash('sha256').update(JSON.stringify(keyFields(model, request))).digest('hex')
    return join(this.directory, 'replies', model.provider, safeName(model.model), hash.slice(0, 2), `${hash}.json`)
  }
}

function keyFields(model: CachedModel, request: ChatRequest): unknown {
  return {
    provider: model.provider,
    model: model.model,
    digest: model.details.digest ?? null,
    mode: request.mode ?? 'chat',
    params: request.params,
    messages: request.messages,
    sample: request.item.sample,
  }
}

async function readStored(file: string): Promise<ChatReply | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return undefined
  }
  const stored: unknown = JSON.parse(text)
  if (typeof stored === 'object' && stored !== null && 'reply' in stored) return stored.reply as ChatReply
  return undefined
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
