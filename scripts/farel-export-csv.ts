/**
 * Writes the FaRel quiz set as the original farel-bench's CSV
 * (`level,class,correct,"<quiz as Python repr>"`, one line per quiz), so it
 * can be compared with, or fed to, the original's scripts.
 *
 *   node scripts/farel-export-csv.ts [FILE]      (stdout without FILE)
 *
 * The set is the one the suite would ask, from the same TESTBENCH_FAREL_*
 * variables; by default the published FaRel-3 set, whose md5 is checked.
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { KnobValueError } from '../adapters/knob.ts'
import { describeSet, farelOptions, FarelOptionError, isPublishedSet } from '../suites/farel/options.ts'
import { toCsv } from '../suites/farel/python-csv.ts'
import { generateQuizzes } from '../suites/farel/quiz.ts'
import { answerHelp } from './script-usage.ts'

const PUBLISHED_MD5 = '0b08876d7a221c9b9812ea85d746449a'

const USAGE = `usage: npm run farel:csv [-- FILE]   (stdout without FILE)
Writes the FaRel quiz set as the original farel-bench's CSV. The set follows TESTBENCH_FAREL_LENGTH,
_PER_CLASS, _SEED, _MODE, _SHUFFLE and _TEMPLATE.`

const args = process.argv.slice(2)
answerHelp(USAGE, args)
if (args.length > 1 || args.some((arg) => arg.startsWith('-'))) {
  console.error(USAGE)
  process.exit(2)
}

try {
  const options = farelOptions()
  const quizzes = generateQuizzes(options)
  const csv = toCsv(quizzes)
  const md5 = createHash('md5').update(csv).digest('hex')
  const [file] = args
  if (file === undefined) process.stdout.write(csv)
  else writeFileSync(file, csv)
  const where = file === undefined ? '' : ` to ${file}`
  console.error(
    `FaRel-${options.length}: ${quizzes.length} quizzes (${describeSet(options)}) written${where}, md5 ${md5}`,
  )
  if (isPublishedSet(options)) {
    if (md5 !== PUBLISHED_MD5) {
      console.error(
        `This should be the published set, whose md5 is ${PUBLISHED_MD5}: the generator has drifted from the original.`,
      )
      process.exitCode = 1
    } else {
      console.error('This is the published set: the md5 matches.')
    }
  }
} catch (error) {
  if (!(error instanceof FarelOptionError || error instanceof KnobValueError)) throw error
  console.error(error.message)
  process.exitCode = 2
}
