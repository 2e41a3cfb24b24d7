/** DSML calls (DeepSeek V3.2, V4, V4.1), as their encoders' `encode_arguments_to_dsml` and call templates write them. */
// Strings as they are, with `string="true"`; other values as JSON (`json.dumps`), with `string="false"`;
// a turn's invokes one a line inside the dialect's section.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V3.2/blob/main/encoding/encoding_dsv32.py
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
import type { ToolCallPart } from '../../src/core/index.js';
import type { DsmlDialect } from './dsml-tokens.js';
import { argumentsAsMembers, formatJson } from './format-json.js';

type Call = Pick<ToolCallPart, 'name' | 'arguments'>;

function renderDsmlInvoke(call: Call, dialect: DsmlDialect): string {
  const { invokeOpen, invokeClose, parameterOpen, parameterClose } = dialect;
  const entries = Object.entries(argumentsAsMembers(call.arguments));
  const parameters = entries.map(([key, member]) =>
    typeof member === 'string'
      ? `${parameterOpen} name="${key}" string="true">${member}${parameterClose}`
      : `${parameterOpen} name="${key}" string="false">${formatJson(member)}${parameterClose}`,
  );
  return `${invokeOpen} name="${call.name}">\n${parameters.join('\n')}\n${invokeClose}`;
}

export function renderDsmlSection(calls: readonly Call[], dialect: DsmlDialect): string {
  return `${dialect.sectionOpen}\n${calls.map((call) => renderDsmlInvoke(call, dialect)).join('\n')}\n${dialect.sectionClose}`;
}
