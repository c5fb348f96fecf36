/**
 * PE-Bench's virtual workspace (upstream's `VirtualFileSystem`): files in memory, by path relative to the
 * workspace, never on disk. Paths are normalized as upstream's `normalize_virtual_path` does (POSIX
 * `normpath`, backslashes as slashes); one that leaves the workspace is refused. Unlike upstream, a file
 * and the whole workspace have a size cap, so that a model cannot fill the harness's memory.
 */
export const MAX_FILE_BYTES = 1024 * 1024
export const MAX_WORKSPACE_BYTES = 8 * 1024 * 1024

export class Workspace {
  readonly #files = new Map<string, string>()

  list(): string[] {
    return [...this.#files.keys()].sort(byCodePoint)
  }

  has(path: string): boolean {
    return this.#files.has(path)
  }

  read(path: string): string | undefined {
    return this.#files.get(path)
  }

  /** Undefined when written; else why not (a size cap). */
  write(path: string, content: string): string | undefined {
    const bytes = Buffer.byteLength(content)
    if (bytes > MAX_FILE_BYTES) return `File too large: ${bytes} bytes, the limit is ${MAX_FILE_BYTES} bytes.`
    const total = this.bytes() - Buffer.byteLength(this.#files.get(path) ?? '') + bytes
    if (total > MAX_WORKSPACE_BYTES)
      return `Workspace full: it would hold ${total} bytes, the limit is ${MAX_WORKSPACE_BYTES} bytes.`
    this.#files.set(path, content)
    return undefined
  }

  delete(path: string): void {
    this.#files.delete(path)
  }

  rename(source: string, destination: string): void {
    const content = this.#files.get(source)
    if (content === undefined) return
    this.#files.delete(source)
    this.#files.set(destination, content)
  }

  private bytes(): number {
    let total = 0
    for (const content of this.#files.values()) total += Buffer.byteLength(content)
    return total
  }
}

/** A workspace-relative path, normalized; an error as upstream words it for an empty path or one that leaves the workspace. */
export function normalizeWorkspacePath(path: string): { path: string } | { error: string } {
  if (path === '') return { error: 'Path must not be empty.' }
  const slashed = path.replaceAll('\\', '/')
  const absolute = slashed.startsWith('/')
  const parts: string[] = []
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop()
    else if (part !== '..' || !absolute) parts.push(part)
  }
  const normalized = (absolute ? '/' : '') + parts.join('/')
  if (normalized === '' || normalized === '.') return { error: 'Path must not be empty.' }
  if (normalized.startsWith('../') || normalized === '..' || normalized.startsWith('/'))
    return { error: 'Path must be workspace-relative.' }
  return { path: normalized }
}

/** Python's `sorted` of strings: by code point, not by UTF-16 unit. */
function byCodePoint(a: string, b: string): number {
  const left = [...a]
  const right = [...b]
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0)
    if (difference !== 0) return difference
  }
  return left.length - right.length
}
