/** Just enough ustar to copy source files into a container and read files back out. */

const BLOCK = 512

export interface TarEntry {
  name: string
  content: Buffer
}

/** A tar of `files` (relative paths) and their parent directories, owned by `uid`. */
export function packTar(files: Readonly<Record<string, string | Buffer>>, uid: number): Buffer {
  const blocks: Buffer[] = []
  const dirs = new Set<string>()
  for (const [name, content] of Object.entries(files)) {
    const parts = name.split('/')
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/') + '/'
      if (dirs.has(dir)) continue
      dirs.add(dir)
      blocks.push(header(dir, 0, '5', 0o755, uid))
    }
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content)
    blocks.push(header(name, data.length, '0', 0o644, uid), data, Buffer.alloc(padding(data.length)))
  }
  blocks.push(Buffer.alloc(BLOCK * 2))
  return Buffer.concat(blocks)
}

/** The regular files in a tar, by path; other entry types are skipped. */
export function unpackTar(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = []
  let offset = 0
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK)
    if (block.every((byte) => byte === 0)) break
    const size = parseInt(text(block, 124, 12) || '0', 8)
    const type = text(block, 156, 1)
    const prefix = text(block, 345, 155)
    const name = (prefix === '' ? '' : prefix + '/') + text(block, 0, 100)
    offset += BLOCK
    if (type === '0' || type === '') entries.push({ name, content: Buffer.from(tar.subarray(offset, offset + size)) })
    offset += size + padding(size)
  }
  return entries
}

function header(name: string, size: number, type: '0' | '5', mode: number, uid: number): Buffer {
  const block = Buffer.alloc(BLOCK)
  const [prefix, base] = splitName(name)
  block.write(base, 0, 100, 'utf8')
  octal(block, 100, 8, mode)
  octal(block, 108, 8, uid)
  octal(block, 116, 8, uid)
  octal(block, 124, 12, size)
  octal(block, 136, 12, Math.floor(Date.now() / 1000))
  block.write(type, 156, 1, 'ascii')
  block.write('ustar\u000000', 257, 8, 'ascii')
  block.write(prefix, 345, 155, 'utf8')
  // The checksum is computed with its own field as spaces.
  block.fill(' ', 148, 156)
  const sum = block.reduce((total, byte) => total + byte, 0)
  block.write(sum.toString(8).padStart(6, '0') + '\u0000 ', 148, 8, 'ascii')
  return block
}

function splitName(name: string): [string, string] {
  if (Buffer.byteLength(name) <= 100) return ['', name]
  const cut = name.lastIndexOf('/', name.length - 2)
  const prefix = name.slice(0, cut)
  const base = name.slice(cut + 1)
  if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(base) > 100) {
    throw new RangeError(`File name "${name}" is too long for the container copy; keep paths under 100 bytes per name.`)
  }
  return [prefix, base]
}

function octal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(value.toString(8).padStart(length - 1, '0') + '\u0000', offset, length, 'ascii')
}

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length)
  const end = field.indexOf(0)
  return field
    .subarray(0, end < 0 ? length : end)
    .toString('utf8')
    .trim()
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK
}
