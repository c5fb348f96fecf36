import { randomBytes } from 'node:crypto'
import { killProcessesWith, RUN_WORD_VARIABLE } from './host-processes.ts'

/**
 * Global setup of the harness tests: nothing a test starts outlives the run. Every token a test gives a program to
 * leave in the command line of what it starts (`leftoverToken`) carries this run's word; when the run ends, any
 * process that still carries it is killed, and the run fails naming it, whether or not its own test saw it.
 */
export default function setup(): () => void {
  const before = process.env[RUN_WORD_VARIABLE]
  const word = `run${randomBytes(6).toString('hex')}`
  process.env[RUN_WORD_VARIABLE] = word
  return () => {
    if (before === undefined) delete process.env[RUN_WORD_VARIABLE]
    else process.env[RUN_WORD_VARIABLE] = before
    const left = killProcessesWith(word)
    if (left.length > 0)
      throw new Error(
        `These processes outlived the tests that started them (killed now): find the test by the name in the token.\n${left.join('\n')}`,
      )
  }
}
