/**
 * The one value of this process named `name`, made by `make` the first time. Vitest loads the global setup (which
 * runs the slot and batch servers) and the reporters (which show what those servers know) apart, each with its own
 * copy of a module: what both must see lives on the process, under a name both find.
 */
export function processWide<T extends object>(name: string, make: () => T): T {
  const holder = globalThis as { [key: symbol]: T | undefined }
  const key = Symbol.for(`llm-testbench.${name}`)
  return (holder[key] ??= make())
}
