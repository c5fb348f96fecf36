/** EvalPlus's instruction for chat models: the task's prompt in a fenced block; the hidden tests never appear in it. */
export function instructionPrompt(prompt: string): string {
  return `Please provide a self-contained Python script that solves the following problem in a markdown code block:\n\`\`\`python\n${prompt.trim()}\n\`\`\`\n`
}
