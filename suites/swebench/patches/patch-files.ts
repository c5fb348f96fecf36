/** The files a unified diff touches, as paths in the repository (`b/` side, `a/` side for deletions). */
export function patchFiles(patch: string): string[] {
  const files: string[] = []
  const add = (path: string) => {
    if (path !== '/dev/null' && !files.includes(path)) files.push(path)
  }
  let pendingOld: string | undefined
  for (const line of patch.split('\n')) {
    const git = /^diff --git a\/(.+?) b\/(.+)$/.exec(line)
    if (git) {
      add(git[2] ?? '')
      pendingOld = undefined
      continue
    }
    const old = /^--- (?:a\/)?(\S+)/.exec(line)
    if (old) pendingOld = old[1]
    const added = /^\+\+\+ (?:b\/)?(\S+)/.exec(line)
    if (added && pendingOld !== undefined) {
      add(added[1] === '/dev/null' ? pendingOld : (added[1] ?? ''))
      pendingOld = undefined
    }
  }
  return files
}

/** Files of a test patch that are tests to run: SWE-bench leaves out data files (json, images, text…). */
export function testFiles(testPatch: string): string[] {
  return patchFiles(testPatch).filter((path) => !NON_TEST_FILES.test(path))
}

const NON_TEST_FILES = /(\.json|\.png|csv|\.txt|\.md|\.jpg|\.jpeg|\.pkl|\.yml|\.yaml|\.toml)$/
