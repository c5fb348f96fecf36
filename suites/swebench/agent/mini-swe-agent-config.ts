/**
 * mini-swe-agent's SWE-bench configuration, as data: the prompt texts the reproduction must send word for
 * word, and its limits and command environment. Taken from SWE-agent/mini-swe-agent at tag v2.4.6
 * (commit a83fcae82d2a08f0ee0c688f9d137b3566c097f8):
 *   - `tools`: src/minisweagent/config/benchmarks/swebench.yaml (one `bash` tool, native tool calls);
 *   - `text`: src/minisweagent/config/benchmarks/swebench_backticks.yaml (one fenced command a reply);
 *   - the `bash` tool: src/minisweagent/models/utils/actions_toolcall.py (BASH_TOOL);
 *   - the text mode's action pattern: src/minisweagent/models/litellm_textbased_model.py (action_regex).
 * Upstream writes the observation and format-error messages as Jinja templates; their fixed texts are
 * here and agent-messages.ts puts them together as those templates render (checked against Jinja).
 */
import type { ToolDefinition } from '../../../adapters/models/model-adapter.ts'

export const MINI_SWE_AGENT_VERSION = '2.4.6'
export const MINI_SWE_AGENT_COMMIT = 'a83fcae82d2a08f0ee0c688f9d137b3566c097f8'

/** How the model gives its commands: native tool calls (swebench.yaml) or one fenced block a reply (swebench_backticks.yaml). */
export type ActionForm = 'tools' | 'text'

export interface AgentConfig {
  form: ActionForm
  /** The upstream file this configuration reproduces. */
  upstreamFile: string
  /** `{{task}}` is the instance's problem statement. */
  systemTemplate: string
  instanceTemplate: string
  /** A format error caused by a reply cut at the length limit; `{{ finish_reason }}` is the provider's reason. */
  truncatedReply: string
  /** A format error's text before and after its `<error>` block; `{{actions|length}}` is how many actions were found. */
  formatErrorHead: string
  formatErrorGuidance: string
  /** Model calls before the run stops (checked before each call). */
  stepLimit: number
  /** Dollars spent before the run stops (checked before each call). */
  costLimit: number
  /** Three format errors in a row end the run (DefaultAgent's max_consecutive_format_errors default). */
  maxConsecutiveFormatErrors: number
  /** Every command: `bash -c <command>` in `cwd`, with `env` set, stopped after `timeoutSeconds`. */
  cwd: string
  timeoutSeconds: number
  env: Readonly<Record<string, string>>
}

/** The output past which an observation shows only its head and tail (characters, as Python counts them). */
export const OBSERVATION_LIMIT = 10_000
export const OBSERVATION_EDGE = 5_000
export const OBSERVATION_WARNING = `<warning>
The output of your last command was too long.
Please try a different command that produces less output.
If you're looking at a file you can try use head, tail or sed to view a smaller number of lines selectively.
If you're using grep or find and it produced too much output, you can use a more selective search pattern.
If you really need to see something from the full command's output, you can redirect output to a file and then search in that file.
</warning>`

/** The first line of a command's output that submits the rest as the patch (when the command exits 0). */
export const SUBMIT_MARKER = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'

/** The one tool of the `tools` form. */
export const BASH_TOOL: ToolDefinition = {
  name: 'bash',
  description: 'Execute a bash command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command to execute' } },
    required: ['command'],
  },
}

/** The text form's action: a ```mswea_bash_command fenced block (Python's `re.DOTALL`: `.` crosses lines). */
export const TEXT_ACTION_PATTERN = /```mswea_bash_command\s*\n([\s\S]*?)\n```/g

export const TOOLS_CONFIG: AgentConfig = {
  form: 'tools',
  upstreamFile: 'src/minisweagent/config/benchmarks/swebench.yaml',
  systemTemplate: `You are a helpful assistant that can interact with a computer shell to solve programming tasks.`,
  instanceTemplate: `<pr_description>
Consider the following PR description:
{{task}}
</pr_description>

<instructions>
# Task Instructions

## Overview

You're a software engineer interacting continuously with a computer by submitting commands.
You'll be helping implement necessary changes to meet requirements in the PR description.
Your task is specifically to make changes to non-test files in the current directory in order to fix the issue described in the PR description in a way that is general and consistent with the codebase.
<IMPORTANT>This is an interactive process where you will think and issue AT LEAST ONE command, see the result, then think and issue your next command(s).</important>

For each response:

1. Include a THOUGHT section explaining your reasoning and what you're trying to accomplish
2. Provide one or more bash tool calls to execute

## Important Boundaries

- MODIFY: Regular source code files in /testbed (this is the working directory for all your subsequent commands)
- DO NOT MODIFY: Tests, configuration files (pyproject.toml, setup.cfg, etc.)

## Recommended Workflow

1. Analyze the codebase by finding and reading relevant files
2. Create a script to reproduce the issue
3. Edit the source code to resolve the issue
4. Verify your fix works by running your script again
5. Test edge cases to ensure your fix is robust

## Command Execution Rules

You are operating in an environment where

1. You issue at least one command
2. The system executes the command(s) in a subshell
3. You see the result(s)
4. You write your next command(s)

Each response should include:

1. **Reasoning text** where you explain your analysis and plan
2. At least one tool call with your command

**CRITICAL REQUIREMENTS:**

- Your response SHOULD include reasoning text explaining what you're doing
- Your response MUST include AT LEAST ONE bash tool call. You can make MULTIPLE tool calls in a single response when the commands are independent (e.g., searching multiple files, reading different parts of the codebase).
- Directory or environment variable changes are not persistent. Every action is executed in a new subshell.
- However, you can prefix any action with \`MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...\` or write/load environment variables from files

Example of a CORRECT response:
<example_response>
I need to understand the Builder-related code. Let me find relevant files and check the project structure.

[Makes multiple bash tool calls: {"command": "ls -la"}, {"command": "find src -name '*.java' | grep -i builder"}, {"command": "cat README.md | head -50"}]
</example_response>

## Environment Details

- You have a full Linux shell environment
- Always use non-interactive flags (-y, -f) for commands
- Avoid interactive tools like vi, nano, or any that require user input
- You can use bash commands or invoke any tool that is available in the environment
- You can also create new tools or scripts to help you with the task
- If a tool isn't available, you can also install it

## Submission

When you've completed your work, you MUST submit your changes as a git patch.
Follow these steps IN ORDER, with SEPARATE commands:

Step 1: Create the patch file
Run \`git diff -- path/to/file1 path/to/file2 > patch.txt\` listing only the source files you modified.
Do NOT commit your changes.

<IMPORTANT>
The patch must only contain changes to the specific source files you modified to fix the issue.
Do not submit file creations or changes to any of the following files:

- test and reproduction files
- helper scripts, tests, or tools that you created
- installation, build, packaging, configuration, or setup scripts unless they are directly part of the issue you were fixing (you can assume that the environment is already set up for your client)
- binary or compiled files
</IMPORTANT>

Step 2: Verify your patch
Inspect patch.txt to confirm it only contains your intended changes and headers show \`--- a/\` and \`+++ b/\` paths.

Step 3: Submit (EXACT command required)
You MUST use this EXACT command to submit:

\`\`\`bash
echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt
\`\`\`

If the command fails (nonzero exit status), it will not submit.

<CRITICAL>
- Creating/viewing the patch and submitting it MUST be separate commands (not combined with &&).
- If you modify patch.txt after verifying, you SHOULD verify again before submitting.
- You CANNOT continue working (reading, editing, testing) in any way on this task after submitting.
</CRITICAL>
</instructions>`,
  truncatedReply: `Your previous response reached the output token limit (finish_reason={{ finish_reason }}) before you produced a tool call, so it was cut off. Respond more concisely and finish with exactly one bash tool call. If you need to think more, do so briefly.`,
  formatErrorHead: `Tool call error:

`,
  formatErrorGuidance: `Here is general guidance on how to submit correct toolcalls:

Every response needs to use the 'bash' tool at least once to execute commands.

Call the bash tool with your command as the argument:
- Tool: bash
- Arguments: {"command": "your_command_here"}

If you have completed your assignment, please consult the first message about how to
submit your solution (you will not be able to continue working on this task after that).`,
  stepLimit: 250,
  costLimit: 3.0,
  maxConsecutiveFormatErrors: 3,
  cwd: '/testbed',
  timeoutSeconds: 60,
  env: {
    PAGER: 'cat',
    MANPAGER: 'cat',
    LESS: '-R',
    PIP_PROGRESS_BAR: 'off',
    TQDM_DISABLE: '1',
    BASH_ENV: '/root/.bashrc',
  },
}

export const TEXT_CONFIG: AgentConfig = {
  form: 'text',
  upstreamFile: 'src/minisweagent/config/benchmarks/swebench_backticks.yaml',
  systemTemplate: `You are a helpful assistant that can interact multiple times with a computer shell to solve programming tasks.
Your response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).

Include a THOUGHT section before your command where you explain your reasoning process.
Format your response as shown in <format_example>.

<format_example>
THOUGHT: Your reasoning and analysis here

\`\`\`mswea_bash_command
your_command_here
\`\`\`
</format_example>

Failure to follow these rules will cause your response to be rejected.`,
  instanceTemplate: `<pr_description>
Consider the following PR description:
{{task}}
</pr_description>

<instructions>
# Task Instructions

## Overview

You're a software engineer interacting continuously with a computer by submitting commands.
You'll be helping implement necessary changes to meet requirements in the PR description.
Your task is specifically to make changes to non-test files in the current directory in order to fix the issue described in the PR description in a way that is general and consistent with the codebase.

<IMPORTANT>This is an interactive process where you will think and issue ONE command, see its result, then think and issue your next command.</IMPORTANT>

For each response:

1. Include a THOUGHT section explaining your reasoning and what you're trying to accomplish
2. Provide exactly ONE bash command to execute

## Important Boundaries

- MODIFY: Regular source code files in /testbed (this is the working directory for all your subsequent commands)
- DO NOT MODIFY: Tests, configuration files (pyproject.toml, setup.cfg, etc.)

## Recommended Workflow

1. Analyze the codebase by finding and reading relevant files
2. Create a script to reproduce the issue
3. Edit the source code to resolve the issue
4. Verify your fix works by running your script again
5. Test edge cases to ensure your fix is robust

## Command Execution Rules

You are operating in an environment where

1. You write a single command
2. The system executes that command in a subshell
3. You see the result
4. You write your next command

Each response should include:

1. A **THOUGHT** section where you explain your reasoning and plan
2. A single bash code block with your command

Format your responses like demonstrated within the <format_example> block:

<format_example>
THOUGHT: Here I explain my reasoning process, analysis of the current situation,
and what I'm trying to accomplish with the command below.

\`\`\`mswea_bash_command
your_command_here
\`\`\`
</format_example>

Commands must be specified in a single bash code block:

\`\`\`mswea_bash_command
your_command_here
\`\`\`

**CRITICAL REQUIREMENTS:**

- Your response SHOULD include a THOUGHT section explaining your reasoning
- Your response MUST include EXACTLY ONE bash code block
- This bash block MUST contain EXACTLY ONE command (or a set of commands connected with && or ||)
- If you include zero or multiple bash blocks, or no command at all, YOUR RESPONSE WILL FAIL
- Do NOT try to run multiple independent commands in separate blocks in one response
- Directory or environment variable changes are not persistent. Every action is executed in a new subshell.
- However, you can prefix any action with \`MY_ENV_VAR=MY_VALUE cd /path/to/working/dir && ...\` or write/load environment variables from files

Example of a CORRECT response:
<example_response>
THOUGHT: I need to understand the structure of the repository first. Let me check what files are in the current directory to get a better understanding of the codebase.

\`\`\`mswea_bash_command
ls -la
\`\`\`
</example_response>

Example of an INCORRECT response:

<example_response>
THOUGHT: I need to examine the codebase and then look at a specific file. I'll run multiple commands to do this.

\`\`\`mswea_bash_command
ls -la
\`\`\`

Now I'll read the file:

\`\`\`mswea_bash_command
cat file.txt
\`\`\`
</example_response>

If you need to run multiple commands, either:

1. Combine them in one block using && or ||
\`\`\`mswea_bash_command
command1 && command2 || echo "Error occurred"
\`\`\`

2. Wait for the first command to complete, see its output, then issue the next command in your following response.

## Environment Details

- You have a full Linux shell environment
- Always use non-interactive flags (-y, -f) for commands
- Avoid interactive tools like vi, nano, or any that require user input
- You can use bash commands or invoke any tool that is available in the environment
- You can also create new tools or scripts to help you with the task
- If a tool isn't available, you can also install it

## Submission

When you've completed your work, you MUST submit your changes as a git patch.
Follow these steps IN ORDER, with SEPARATE commands:

Step 1: Create the patch file
Run \`git diff -- path/to/file1 path/to/file2 > patch.txt\` listing only the source files you modified.
Do NOT commit your changes.

<IMPORTANT>
The patch must only contain changes to the specific source files you modified to fix the issue.
Do not submit file creations or changes to any of the following files:

- test and reproduction files
- helper scripts, tests, or tools that you created
- installation, build, packaging, configuration, or setup scripts unless they are directly part of the issue you were fixing (you can assume that the environment is already set up for your client)
- binary or compiled files
</IMPORTANT>

Step 2: Verify your patch
Inspect patch.txt to confirm it only contains your intended changes and headers show \`--- a/\` and \`+++ b/\` paths.

Step 3: Submit (EXACT command required)
You MUST use this EXACT command to submit:

\`\`\`mswea_bash_command
echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt
\`\`\`

If the command fails (nonzero exit status), it will not submit.

<CRITICAL>
- Creating/viewing the patch and submitting it MUST be separate commands (not combined with &&).
- If you modify patch.txt after verifying, you SHOULD verify again before submitting.
- You CANNOT continue working (reading, editing, testing) in any way on this task after submitting.
</CRITICAL>
</instructions>`,
  truncatedReply: `Your previous response reached the output token limit (finish_reason={{ finish_reason }}) before you produced a complete action, so it was cut off. Respond more concisely and provide exactly one action in the required format. If you need to think more, do so briefly.`,
  formatErrorHead: `Format error:

`,
  formatErrorGuidance: `Here is general guidance on how to format your response:

Please always provide EXACTLY ONE action in triple backticks, found {{actions|length}} actions.

Please format your action in triple backticks as shown in <response_example>.

<response_example>
Here are some thoughts about why you want to perform the action.

\`\`\`mswea_bash_command
<action>
\`\`\`
</response_example>

If you have completed your assignment, please consult the first message about how to
submit your solution (you will not be able to continue working on this task after that).`,
  stepLimit: 250,
  costLimit: 3.0,
  maxConsecutiveFormatErrors: 3,
  cwd: '/testbed',
  timeoutSeconds: 60,
  env: { PAGER: 'cat', MANPAGER: 'cat', LESS: '-R', PIP_PROGRESS_BAR: 'off', TQDM_DISABLE: '1' },
}

export function agentConfig(form: ActionForm): AgentConfig {
  return form === 'tools' ? TOOLS_CONFIG : TEXT_CONFIG
}
