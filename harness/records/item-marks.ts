/**
 * Marks an item's record may carry beside its outcome, for a reader to look at how the verdict came about. Each is a
 * Vitest tag too (the UI and the html report show it beside the item's name and filter on it: `tag:probed_history`).
 */
export const ITEM_MARKS = {
  probed_history:
    'the agent ran commands that read the repository’s history beyond its working tree (git log --all, git reflog, a hash past the base…): look at how it got its verdict',
} as const

export type ItemMark = keyof typeof ITEM_MARKS
