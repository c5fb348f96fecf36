import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, inflateSync } from 'node:zlib'
import { GifWriter } from 'omggif'
import { describe, expect, test } from 'vitest'
import { pngFromGif } from '../../../../suites/euler/dataset/png-from-gif.ts'
import { sandboxPython, skipWithoutPythonModules } from '../../../support/sandbox-available.ts'

/**
 * GIFs made here with omggif's writer: the PNG must hold the first frame's pixels as the palette gives them,
 * transparent where the frame is transparent or draws nothing, and Pillow (what upstream converts with) must
 * read the same pixels from the PNG as from the GIF.
 */
const PALETTE = [0xff0000, 0x00ff00, 0x0000ff, 0x123456]
const TRANSPARENT = 3

interface Made {
  gif: Buffer
  width: number
  height: number
  /** The first frame: where it sits on the canvas, and its palette indices. */
  frame: { x: number; y: number; width: number; height: number; indices: number[] }
}

function makeGif(made: Omit<Made, 'gif'>, later: number[][] = []): Made {
  const buffer = Buffer.alloc(4096)
  const writer = new GifWriter(buffer, made.width, made.height, { palette: PALETTE, loop: 0 })
  const { x, y, width, height, indices } = made.frame
  writer.addFrame(x, y, width, height, indices, { transparent: TRANSPARENT, delay: 10 })
  for (const frame of later) writer.addFrame(0, 0, made.width, made.height, frame, { delay: 10 })
  return { ...made, gif: buffer.subarray(0, writer.end()) }
}

/** The RGBA the first frame shows, from the palette: no GIF decoder involved. */
function expectedPixels(made: Made): number[] {
  const pixels: number[] = []
  for (let row = 0; row < made.height; row++)
    for (let column = 0; column < made.width; column++) {
      const { x, y, width, height, indices } = made.frame
      const inside = column >= x && column < x + width && row >= y && row < y + height
      const index = inside ? indices[(row - y) * width + (column - x)] : undefined
      const colour = index === undefined || index === TRANSPARENT ? undefined : PALETTE[index]
      pixels.push(...(colour === undefined ? [0, 0, 0, 0] : [colour >> 16, (colour >> 8) & 0xff, colour & 0xff, 255]))
    }
  return pixels
}

/** The chunks of a PNG, each CRC checked, and its pixels: 8-bit RGBA rows behind filter bytes. */
function readPng(png: Buffer): { width: number; height: number; pixels: number[] } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const chunks: Array<[string, Buffer]> = []
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at)
    const typed = png.subarray(at + 4, at + 8 + length)
    expect(png.readUInt32BE(at + 8 + length), 'CRC').toBe(crc32(typed))
    chunks.push([typed.subarray(0, 4).toString('latin1'), typed.subarray(4)])
    at += 12 + length
  }
  expect(chunks.map(([type]) => type)).toEqual(['IHDR', 'IDAT', 'IEND'])
  const header = chunks[0]?.[1] ?? Buffer.alloc(13)
  const width = header.readUInt32BE(0)
  const height = header.readUInt32BE(4)
  expect([...header.subarray(8)], 'bit depth 8, RGBA, deflate, no filter method, no interlace').toEqual([8, 6, 0, 0, 0])
  const rows = inflateSync(chunks[1]?.[1] ?? Buffer.alloc(0))
  expect(rows.length).toBe(height * (width * 4 + 1))
  const pixels: number[] = []
  for (let row = 0; row < height; row++) {
    const start = row * (width * 4 + 1)
    expect(rows[start], 'filter type none').toBe(0)
    pixels.push(...rows.subarray(start + 1, start + 1 + width * 4))
  }
  return { width, height, pixels }
}

const CASES: Array<[string, Made]> = [
  [
    'a still GIF with a transparent pixel',
    makeGif({ width: 3, height: 2, frame: { x: 0, y: 0, width: 3, height: 2, indices: [0, 1, 2, 3, 2, 1] } }),
  ],
  [
    'an animated GIF: its first frame, drawn at an offset on a larger canvas',
    makeGif({ width: 5, height: 4, frame: { x: 1, y: 2, width: 3, height: 2, indices: [2, 2, 3, 0, 1, 0] } }, [
      Array<number>(20).fill(1),
      Array<number>(20).fill(0),
    ]),
  ],
]

describe('a GIF goes to a vision model as a PNG of its first frame', () => {
  test.each(CASES)('%s', (_, made) => {
    expect(readPng(pngFromGif(made.gif))).toEqual({
      width: made.width,
      height: made.height,
      pixels: expectedPixels(made),
    })
  })

  test('Pillow, which upstream converts with, reads the same pixels from the PNG as from the GIF', (context) => {
    skipWithoutPythonModules(context, ['PIL'])
    const dir = mkdtempSync(join(tmpdir(), 'gif-png-'))
    context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const compare = [
      'import sys',
      'from PIL import Image',
      'def pixels(path):',
      "    image = Image.open(path).convert('RGBA')",
      '    return [p if p[3] else (0, 0, 0, 0) for p in image.getdata()], image.size',
      'print(pixels(sys.argv[1]) == pixels(sys.argv[2]))',
    ].join('\n')
    for (const [index, [, made]] of CASES.entries()) {
      writeFileSync(join(dir, `${index}.gif`), made.gif)
      writeFileSync(join(dir, `${index}.png`), pngFromGif(made.gif))
      const run = spawnSync(sandboxPython(), ['-c', compare, join(dir, `${index}.gif`), join(dir, `${index}.png`)], {
        encoding: 'utf8',
      })
      expect(run.stdout.trim(), run.stderr).toBe('True')
    }
  })
})
