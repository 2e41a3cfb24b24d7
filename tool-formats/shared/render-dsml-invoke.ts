/** One DSML invoke (DeepSeek V3.2, V4), as their encoders' `encode_arguments_to_dsml` writes it. */
// Strings as they are, with `string="true"`; other values as JSON (`json.dumps`), with `string="false"`.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3.2/blob/main/encoding/encoding_dsv32.py
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
import type { ToolCallPart } from '../../src/core/index.js';
import { invokeClose, invokeOpen, parameterClose, parameterOpen } from './dsml-tokens.js';
import { argumentsAsMembers, formatJson } from './format-json.js';

export function renderDsmlInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const entries = Object.entries(argumentsAsMembers(call.arguments));
  const parameters = entries.map(([key, member]) =>
    typeof member === 'string'
      ? `${parameterOpen} name="${key}" string="true">${member}${parameterClose}`
      : `${parameterOpen} name="${key}" string="false">${formatJson(member)}${parameterClose}`,
  );
  return `${invokeOpen} name="${call.name}">\n${parameters.join('\n')}\n${invokeClose}`;
}
