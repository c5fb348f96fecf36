/**
 * Text from models and programs as it may be shown in a terminal or the UI: terminal control
 * sequences (colours, cursor moves, screen clears, window titles, OSC 8 links, device queries)
 * and other control characters removed, so that nothing printed can rewrite what the user sees
 * or talk to the terminal. Line breaks and tabs are kept; a lone carriage return becomes a line
 * break, so that it cannot overwrite a line. Reports keep the raw text (JSON escapes it).
 */
export function displayText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(CONTROL_CHARACTER, '')
}

const ESCAPE_SEQUENCE = new RegExp(
  [
    '\\u001b\\[[0-?]*[ -/]*[@-~]', // CSI: colours, cursor moves, clears, queries
    '\\u009b[0-?]*[ -/]*[@-~]', // the same, 8-bit
    '\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)?', // OSC: titles, hyperlinks, clipboard
    '\\u009d[^\\u0007\\u009c]*(?:\\u0007|\\u009c)?',
    '\\u001b[PX^_][^\\u001b]*(?:\\u001b\\\\)?', // DCS, SOS, PM, APC strings
    '\\u001b[ -/]*[0-~]', // every other escape sequence
  ].join('|'),
  'g',
)

const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g
