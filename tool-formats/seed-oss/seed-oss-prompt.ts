/** Seed-OSS's tool prompt: the chat template's Python-signature tool list and its `<seed:tool_call>` format line. */
// Wording, the Chinese required/optional marks and the format example are the template's own
// (ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja), so the model sees what it was trained on, and
// so is its layout as the template renders it (trim_blocks and lstrip_blocks, as servers render): parameters
// joined by a bare comma, a blank line before each docstring's closing quotes, and the format block one
// newline after the last function (it is part of the list, not a paragraph of its own).
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/ByteDance-Seed-OSS.jinja
import type { Message, ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import type { ToolPromptWording } from '../shared/tool-prompt.js';

/** The template's call format block, written right after the functions. */
const callFormat = [
  '工具调用请遵循如下格式:',
  '<seed:tool_call>',
  '<function=example_function_name>',
  '<parameter=example_parameter_1>value_1</parameter>',
  '<parameter=example_parameter_2>This is the value for the second parameter',
  'that can span',
  'multiple lines</parameter>',
  '</function>',
  '</seed:tool_call>',
].join('\n');

/**
 * No introduction and no word on results: the template writes the functions right after the system text,
 * and the format block ends with a newline before the system turn's end.
 */
export const seedOssPromptWording: ToolPromptWording = {
  introduction: '',
  renderToolList: (tools) => `${tools.map(renderFunctionDoc).join('\n\n')}\n${callFormat}\n`,
  callInstructions: '',
};

/** The system text the template writes before the functions when the conversation has none. */
const defaultSystemText = 'You are Doubao, a helpful AI assistant. You may call one or more functions to assist with the user query.';

/**
 * With a system message the template adds nothing to it but the functions; without one it opens a system
 * turn with its own text, which the prompt then follows as it would follow the caller's.
 */
export function placeSeedOssToolPrompt(messages: Message[], prompt: string): { messages: Message[]; rest: string } {
  if (messages.some((message) => message.role === 'system')) return { messages, rest: prompt };
  return { messages: [{ role: 'system', content: defaultSystemText }, ...messages], rest: prompt };
}

/** The template's `py_type`: JSON Schema types as the Python annotations it prints. */
function pythonType(type: unknown): string {
  if (type === 'string') return 'str';
  if (type === 'number' || type === 'integer') return 'int';
  if (type === 'boolean') return 'bool';
  if (type === 'array') return 'list';
  return 'Any';
}

/** `Function:\ndef NAME(a: str, b: int):` and a docstring with the description and the `Args:` list. */
function renderFunctionDoc(tool: ToolDefinition): string {
  const properties = isPlainObject(tool.parameters['properties']) ? tool.parameters['properties'] : {};
  const required = Array.isArray(tool.parameters['required']) ? tool.parameters['required'] : [];
  const entries = Object.entries(properties).map(([name, schema]) => ({ name, schema: isPlainObject(schema) ? schema : {} }));
  const signature = entries.map(({ name, schema }) => `${name}: ${pythonType(schema['type'])}`).join(',');
  const lines = ['Function:', `def ${tool.name}(${signature}):`, '    """', `    ${(tool.description ?? '').trim()}`];
  if (entries.length > 0) {
    lines.push('', '    Args:');
    for (const { name, schema } of entries) {
      const mark = required.includes(name) ? '[必填]' : '[选填]';
      // `" " ~ (spec.description or "")`: the space is written even when there is no description.
      const description = typeof schema['description'] === 'string' ? schema['description'] : '';
      lines.push(`    - ${name} (${pythonType(schema['type'])}) ${mark}: ${description}`);
    }
  }
  lines.push('', '    """');
  return lines.join('\n');
}
