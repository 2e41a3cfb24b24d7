/**
 * Anthropic-defined client tools: bash, the text editor, computer use and memory. A request names them by
 * `type` and `name` alone, since Claude was trained on their inputs, but the client runs them, not Anthropic's
 * API ("The bash tool is a client tool: Claude doesn't run commands itself",
 * https://platform.claude.com/docs/agents-and-tools/tool-use/bash-tool; the text editor likewise,
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/text-editor-tool; computer use,
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool; memory,
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/memory-tool). A Claude upstream gets them as
 * the client defined them (`anthropicTool`); another model needs the inputs spelled out, so each is also a
 * custom tool with the input schema those pages document.
 */
import type { AnthropicDefinedTool, ToolDefinition } from '../../src/core/tool-definition.js';
import { computerTool } from './anthropic-computer-tool.js';

const bash: Omit<ToolDefinition, 'name'> = {
  description:
    'Run a command in a persistent bash session: the working directory, environment variables and files carry over between calls.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The bash command to run. Required unless the tool is being restarted.' },
      restart: { type: 'boolean', description: 'Specifying true will restart this tool. Otherwise, leave this unspecified.' },
    },
  },
};

/** The text editor's input; the versions before text_editor_20250429 also have `undo_edit`. */
function textEditor(commands: string[]): Omit<ToolDefinition, 'name'> {
  return {
    description:
      'View, create and edit text files. view shows a file with line numbers (or lists a directory); create writes a new file; ' +
      'str_replace replaces old_str, which must occur exactly once, with new_str; insert adds new_str after line insert_line (0: at the start).',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', enum: commands, description: 'The command to run.' },
        path: { type: 'string', description: 'Absolute path to the file or directory.' },
        file_text: { type: 'string', description: 'Required by create: the content of the file to create.' },
        old_str: {
          type: 'string',
          description: 'Required by str_replace: the exact text to replace, whitespace and indentation included.',
        },
        new_str: { type: 'string', description: 'Required by str_replace and insert: the new text.' },
        insert_line: { type: 'integer', description: 'Required by insert: the line after which to insert new_str (0 for the start).' },
        view_range: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 2,
          maxItems: 2,
          description: 'Optional for view of a file: [start, end] line numbers, 1-based; an end of -1 reads to the end.',
        },
      },
      required: ['command', 'path'],
    },
  };
}

const editCommands = ['view', 'create', 'str_replace', 'insert'];

/**
 * The memory tool's commands on files under `/memories` (memory_20250818; the inputs the memory tool page
 * lists, as @ai-sdk/anthropic's packages/anthropic/src/tool/memory_20250818.ts declares them).
 */
const memory: Omit<ToolDefinition, 'name'> = {
  description:
    'Keep notes across conversations in files under /memories: view a directory or file, create a file, str_replace text ' +
    'in it, insert text at a line, delete a file or directory, rename one. Check your memory directory before starting a task.',
  parameters: {
    type: 'object',
    properties: {
      command: {
        type: 'string',
        enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'],
        description: 'The command to run.',
      },
      path: { type: 'string', description: 'The file or directory, under /memories (all commands but rename).' },
      view_range: {
        type: 'array',
        items: { type: 'integer' },
        minItems: 2,
        maxItems: 2,
        description: 'Optional for view of a file: [start, end] line numbers.',
      },
      file_text: { type: 'string', description: 'Required by create: the content of the file.' },
      old_str: { type: 'string', description: 'Required by str_replace: the exact text to replace, which must occur once.' },
      new_str: { type: 'string', description: 'Required by str_replace: the new text.' },
      insert_line: { type: 'integer', description: 'Required by insert: the line number to insert at.' },
      insert_text: { type: 'string', description: 'Required by insert: the text to insert.' },
      old_path: { type: 'string', description: 'Required by rename: the current path.' },
      new_path: { type: 'string', description: 'Required by rename: the new path.' },
    },
    required: ['command'],
  },
};

/** Tool versions by `type`, as Anthropic's tool reference lists them (computer use: anthropic-computer-tool.ts). */
const clientTools: ReadonlyMap<string, Omit<ToolDefinition, 'name'>> = new Map([
  ['bash_20241022', bash],
  ['bash_20250124', bash],
  ['text_editor_20241022', textEditor([...editCommands, 'undo_edit'])],
  ['text_editor_20250124', textEditor([...editCommands, 'undo_edit'])],
  ['text_editor_20250429', textEditor(editCommands)],
  ['text_editor_20250728', textEditor(editCommands)],
  ['memory_20250818', memory],
]);

/** The wire fields that are not the tool's own definition: kept in the neutral tool's own members. */
const neutralFields: ReadonlySet<string> = new Set(['name', 'cache_control']);

/** The client's definition as Claude takes it back: every field it sent but the name and the cache mark. */
function definedTool(definition: Record<string, unknown>, type: string): AnthropicDefinedTool {
  const defined: AnthropicDefinedTool = { type };
  for (const [field, value] of Object.entries(definition)) if (!neutralFields.has(field)) defined[field] = value;
  return defined;
}

/**
 * The neutral tool an Anthropic-defined client tool stands for, or undefined when `type` is none of them.
 * `definition`: the client's tool; `param`: where it is in the request (for a definition Anthropic would refuse).
 */
export function anthropicClientTool(
  type: string,
  definition: Record<string, unknown> & { name: string },
  param: string,
): ToolDefinition | undefined {
  const tool = clientTools.get(type) ?? computerTool(type, definition, param);
  if (!tool) return undefined;
  return {
    name: definition.name,
    ...tool,
    parameters: structuredClone(tool.parameters),
    anthropicTool: definedTool(definition, type),
  };
}
