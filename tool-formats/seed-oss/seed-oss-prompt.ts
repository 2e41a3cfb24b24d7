/** Seed-OSS's tool prompt: the chat template's Python-signature tool list and its `<seed:tool_call>` format line. */
// Wording, the Chinese required/optional marks and the format example are the template's own
// (ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja), so the model sees what it was trained on, and
// so is its layout as the template renders it (trim_blocks and lstrip_blocks, as servers render): parameters
// joined by a bare comma, a blank line before each docstring's closing quotes, and the format block one
// newline after the last function (it is part of the list, not a paragraph of its own).
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/ByteDance-Seed-OSS.jinja
import type { ToolDefinition } from '../../src/core/index.js';
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

export const seedOssPromptWording: ToolPromptWording = {
  introduction: 'You may call one or more functions to assist with the user query.',
  renderToolList: (tools) => `${tools.map(renderFunctionDoc).join('\n\n')}\n${callFormat}`,
  callInstructions: '',
  resultInstructions:
    'Function results come back to you in the next user turn, each inside <tool_response></tool_response> tags. When no function is needed, answer directly.',
};

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
