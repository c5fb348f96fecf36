import { crc32, deflateSync } from 'node:zlib'
import { GifReader } from 'omggif'

/**
 * A GIF's first frame as a PNG, as upstream sends a problem's GIF image (Pillow's `Image.open(gif).save(png)`):
 * the frame drawn on the GIF's canvas, transparent where it draws nothing, written as 8-bit RGBA.
 */
export function pngFromGif(gif: Uint8Array): Buffer {
  const reader = new GifReader(gif)
  const { width, height } = reader
  const pixels = new Uint8Array(width * height * 4)
  reader.decodeAndBlitFrameRGBA(0, pixels)
  return encodePng(width, height, pixels)
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** Colour type 6: red, green, blue and alpha, 8 bits each. */
const RGBA = 6

/** An RGBA image as a PNG: each row with filter type 0 (none), the rows deflated into one IDAT chunk. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const rowBytes = width * 4
  const rows = Buffer.alloc((rowBytes + 1) * height)
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1)
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, RGBA, 0, 0, 0], 8)
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}
