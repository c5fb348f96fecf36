import { readFileSync } from 'node:fs'

/**
 * This package's version (package.json's, two folders up from here in the repository and in the installed
 * package alike), written into every report so that a score can be traced to the harness that made it.
 */
export const TESTBENCH_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
