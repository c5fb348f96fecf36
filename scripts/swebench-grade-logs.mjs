// node scripts/swebench-grade-logs.mjs <instance.json> <log>...: runs swebench-grade-logs.ts with Node's compile cache
// on. Plain JavaScript on purpose: the cache must be on before the first TypeScript file is stripped of its types,
// which otherwise costs every run Node's TypeScript loader (about 0.2 s of CPU, more than the grading itself).
// The cache sits beside Vitest's (node_modules/.vitest-cache); where it cannot be written, Node compiles as before.
import { enableCompileCache } from 'node:module'
import { fileURLToPath } from 'node:url'

enableCompileCache(fileURLToPath(new URL('../node_modules/.vitest-cache/node-compile-cache', import.meta.url)))
await import('./swebench-grade-logs.ts')
