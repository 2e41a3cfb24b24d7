/**
 * Anthropic-defined client tools: the bash and text editor tools. A request names them by `type` and
 * `name` alone, since Claude was trained on their inputs, but the client runs them, not Anthropic's API
 * ("The bash tool is a client tool: Claude doesn't run commands itself",
 * https://platform.claude.com/docs/agents-and-tools/tool-use/bash-tool; the text editor likewise,
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/text-editor-tool). Another model needs the
 * inputs spelled out, so each becomes a custom tool with the input schema those pages document.
 */
import type { ToolDefinition } from '../../src/core/tool-definition.js';

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

/** Tool versions by `type`, as Anthropic's tool reference lists them. */
const clientTools: ReadonlyMap<string, Omit<ToolDefinition, 'name'>> = new Map([
  ['bash_20241022', bash],
  ['bash_20250124', bash],
  ['text_editor_20241022', textEditor([...editCommands, 'undo_edit'])],
  ['text_editor_20250124', textEditor([...editCommands, 'undo_edit'])],
  ['text_editor_20250429', textEditor(editCommands)],
  ['text_editor_20250728', textEditor(editCommands)],
]);

/** The custom tool an Anthropic-defined client tool stands for, or undefined when `type` is none of them. */
export function anthropicClientTool(type: string, name: string): ToolDefinition | undefined {
  const tool = clientTools.get(type);
  return tool && { name, ...tool, parameters: structuredClone(tool.parameters) };
}
