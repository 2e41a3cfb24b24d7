/** Qwen3-Coder's tool prompt: the chat template's XML tool list and its `<tool_call><function=…>` instructions. */
// Wording and layout follow the template shipped with Qwen3-Coder-30B-A3B-Instruct (also what
// Qwen3.5/3.6 and Nemotron-3-Nano render), so prompted models see what they were trained on.
// @see https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct/blob/main/chat_template.jinja
import type { ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { formatJson } from '../shared/format-json.js';
import { formatPythonValue } from '../shared/format-python-call.js';
import type { ToolPromptWording } from '../shared/tool-prompt.js';

export const qwen3CoderPromptWording: ToolPromptWording = {
  introduction: '# Tools\n\nYou have access to the following functions:',
  renderToolList: renderXmlToolList,
  callInstructions: [
    'If you choose to call a function ONLY reply in the following format with NO suffix:',
    '',
    '<tool_call>',
    '<function=example_function_name>',
    '<parameter=example_parameter_1>',
    'value_1',
    '</parameter>',
    '<parameter=example_parameter_2>',
    'This is the value for the second parameter',
    'that can span',
    'multiple lines',
    '</parameter>',
    '</function>',
    '</tool_call>',
    '',
    '<IMPORTANT>',
    'Reminder:',
    '- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags',
    '- Required parameters MUST be specified',
    '- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after',
    '- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls',
    '</IMPORTANT>',
  ].join('\n'),
  resultInstructions: 'Function results come back to you in the next user turn, each inside <tool_response></tool_response> XML tags.',
};

/**
 * `<tools>` with one `<function>` per tool: name, description, and each parameter's name, type,
 * description and other schema keys (`enum`, `items`, …), then the schema's own other keys (`required`).
 */
export function renderXmlToolList(tools: readonly ToolDefinition[]): string {
  const lines = ['<tools>'];
  for (const tool of tools) {
    lines.push('<function>', `<name>${tool.name}</name>`);
    if (tool.description !== undefined) lines.push(`<description>${tool.description.trim()}</description>`);
    lines.push('<parameters>');
    const properties = tool.parameters['properties'];
    if (isPlainObject(properties)) {
      for (const [name, fields] of Object.entries(properties)) {
        lines.push('<parameter>', `<name>${name}</name>`);
        if (isPlainObject(fields)) {
          if (fields['type'] !== undefined) lines.push(`<type>${templateText(fields['type'])}</type>`);
          if (fields['description'] !== undefined) lines.push(`<description>${templateText(fields['description']).trim()}</description>`);
          lines.push(...renderExtraKeys(fields, ['name', 'type', 'description']));
        }
        lines.push('</parameter>');
      }
    }
    lines.push(...renderExtraKeys(tool.parameters, ['type', 'properties']), '</parameters>', '</function>');
  }
  lines.push('</tools>');
  return lines.join('\n');
}

/** The template's `render_extra_keys`: objects and arrays as JSON, anything else as Jinja prints it. */
function renderExtraKeys(fields: Record<string, unknown>, handled: readonly string[]): string[] {
  return Object.entries(fields)
    .filter(([key, value]) => !handled.includes(key) && value !== undefined)
    .map(([key, value]) => `<${key}>${typeof value === 'object' && value !== null ? formatJson(value) : templateText(value)}</${key}>`);
}

/** Jinja's `| string` on a JSON value: Python's `str()` (`True`, `None`), strings as they are. */
function templateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return formatPythonValue(value);
}
