/**
 * An error's stack without the frames Vitest hides from every stack it prints: node's internals,
 * Vitest's runner, chai and Vite's module runner. Vitest's main process looks for a source map of
 * each frame before it hides it, reading the frame's whole file each time (its runner chunk is
 * 150 kB): about 3 ms of the main process per failing item, which every wrong answer paid.
 */
export function withoutHiddenFrames(stack: string | undefined): string | undefined {
  return stack
    ?.split('\n')
    .filter((line) => !HIDDEN_FRAME.test(line))
    .join('\n')
}

const HIDDEN_FRAME = /^\s+at .*(?:\(node:|\bnode:internal\/|\/node_modules\/(?:vitest|@vitest\/[^/]+|chai|vite)\/)/
