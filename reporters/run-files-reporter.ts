import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node'
import { runFiles } from '../harness/run-wide/run-files.ts'

/**
 * Tells the run's batch server (harness/batches/batch-server.ts, in this process) which test files are yet to start their
 * items: a batch waits for them, so that a worker that starts late on a busy machine does not send its requests
 * in a second batch, which waits for its own answers after the first.
 */
export class RunFilesReporter implements Reporter {
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    const workers = Math.max(1, ...specifications.map((specification) => specification.project.config.maxWorkers))
    runFiles().expect(
      specifications.map((specification) => specification.moduleId),
      workers,
    )
  }

  onTestCaseReady(testCase: TestCase): void {
    runFiles().started(testCase.module.moduleId)
  }

  onTestModuleEnd(testModule: TestModule): void {
    runFiles().ended(testModule.moduleId)
  }
}
