/** The gigachat35 family (Sber GigaChat 3.5): GCML `<｜GCML｜invoke>` calls in a `<｜GCML｜tool_calls>` section. */
// Read: DeepSeek V3.2's DSML shape with GigaChat's `｜GCML｜` prefix (full-width bars, byte for byte), one
// or more invokes per section, each `parameter` a raw value typed by the tool's schema, then by its
// `string="true|false"` attribute; `<think>` reasoning (the template opens it when `reasoning` is on).
// A trailing `</s>` stays text: it is also HTML's strikethrough close (servers drop the EOS token). Written: the 3.5 template's section (one per turn, an
// invoke per call), tools as its TypeScript `namespace functions`, results as `<function_response>` tags.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/gigachat35_tool_parser.py
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/GigaChat3.5.jinja
import type { ToolCallPart } from '../../src/core/index.js';
import { gigachatFamily } from '../gigachat/gigachat-family.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsAsMembers, formatJson } from '../shared/format-json.js';
import { invokeParametersGrammar } from '../shared/invoke-parameters-grammar.js';
import { resultText } from '../shared/tool-result-text.js';

const family = 'gigachat35';
const gcml = '｜GCML｜';
export const gcmlSectionOpen = `<${gcml}tool_calls>`;
export const gcmlSectionClose = `</${gcml}tool_calls>`;
const invokeOpen = `<${gcml}invoke`;
const invokeClose = `</${gcml}invoke>`;
const parameterOpen = `<${gcml}parameter`;
const parameterClose = `</${gcml}parameter>`;

const gcmlInvokeGrammar = invokeParametersGrammar({ id: 'gigachat35-gcml', invokeOpen, invokeClose, parameterOpen, parameterClose });

/** The template's `render_gcml_parameter`: strings as they are, other values as JSON. */
function renderParameter([key, value]: [string, unknown]): string {
  const isString = typeof value === 'string';
  return `${parameterOpen} name="${key}" string="${String(isString)}">${isString ? value : formatJson(value)}${parameterClose}`;
}

/** The template's `render_gcml_invoke`: the head, one parameter per line, the close. */
function renderInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const entries = Object.entries(argumentsAsMembers(call.arguments));
  return [`${invokeOpen} name="${call.name}">`, ...entries.map(renderParameter), invokeClose].join('\n');
}

function renderSection(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return `${gcmlSectionOpen}\n${calls.map(renderInvoke).join('\n')}\n${gcmlSectionClose}`;
}

export const gigachat35Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, gcmlSectionOpen, gcmlSectionClose, [gcmlInvokeGrammar], {
      valueSpans: [{ open: parameterOpen, close: parameterClose }],
    }),
  ],
  prompt: {
    // The function descriptions are GigaChat 3's words and TypeScript namespace; 3.5 keeps them.
    introduction: gigachatFamily.prompt.introduction,
    renderToolList: gigachatFamily.prompt.renderToolList,
    callInstructions: [
      'To call functions, write one tool-calls block after your text, with one invoke per call:',
      gcmlSectionOpen,
      `${invokeOpen} name="function_name">`,
      `${parameterOpen} name="argument_name" string="true">value${parameterClose}`,
      invokeClose,
      gcmlSectionClose,
      'Write string values as they are, without quotes or escaping, with string="true"; write other values (numbers, booleans, arrays, objects) as JSON, with string="false".',
      '',
      'Only call those functions that are described in `function descriptions`. Fill in function arguments using information from the dialog context. If a required argument is missing from the context, ask the user for the missing data before calling the function.',
    ].join('\n'),
    resultInstructions:
      '`function result`\nThe results of your function calls come back to you in the next user turn, each inside <function_response name="function_name"></function_response> tags.',
  },
  renderCall: (call) => renderSection([call]),
  renderCalls: renderSection,
  renderResults: (results) =>
    results.map((result) => `<function_response name="${result.toolName ?? ''}">${resultText(result)}</function_response>`).join('\n'),
};
