/**
 * What `benchmark()` declares about each item's test, before it runs, in `task.meta.declared`:
 * reporters read it for the tests a run did not run (filtered out with `-t`, in another shard or
 * part file), so that a run of some of a set's items is reported as such ("12 of 164 items").
 */
export interface DeclaredItem {
  suite: string
  /** The model's label as in MODEL. */
  model: string
  variant?: string
  /** Tests in the whole set of this suite, model and variant (items × samples), over every part file. */
  setSize: number
  /** The knob that narrowed the set to a selection of its items (`TESTBENCH_BIGCODEBENCH_TASKS=0-49`), if one did. */
  narrowedBy?: string
}

declare module 'vitest' {
  interface TaskMeta {
    declared?: DeclaredItem
  }
}
