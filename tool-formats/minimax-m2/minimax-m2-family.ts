/** The minimax-m2 family (MiniMax-M2, M2.1, M2.5): `<minimax:tool_call>` sections of `<invoke name="…">` calls. */
// Read: one section holding one or more invokes of `<parameter name="K">value</parameter>` pairs, values
// typed by the tool's schema; a value may hold code with `</minimax:tool_call>` in it, only its
// `</parameter>` ends it. M2 always thinks: its template opens `<think>` in the generation prompt, so
// replies served without a reasoning parser start inside reasoning and close it with `</think>`.
// Written: the template's layout (one tag per line, values right after their tag), tools as the
// template's `<tool>` JSON lines, results as its `<response>` blocks.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/unsloth-MiniMax-M2.jinja
import type { ToolCallPart } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson, rawArgumentEntries } from '../shared/format-json.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import { withoutEdgeNewlines } from '../shared/think-block-text.js';
import {
  invokeClose,
  invokeOpen,
  minimaxInvokeGrammar,
  parameterClose,
  parameterOpen,
  parameterValues,
  withoutLinePadding,
} from '../shared/invoke-grammar.js';

const family = 'minimax-m2';
const sectionOpen = '<minimax:tool_call>';
const sectionClose = '</minimax:tool_call>';

/** A value the reader would take a newline pair from gets one more, so it reads back as it was. */
function renderValue(value: string): string {
  return withoutLinePadding(value) === value ? value : `\n${value}\n`;
}

function renderInvoke(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const parameters = rawArgumentEntries(call.arguments).map(
    ([key, value]) => `${parameterOpen}"${key}">${renderValue(value)}${parameterClose}\n`,
  );
  return `${invokeOpen}"${call.name}">\n${parameters.join('')}${invokeClose}\n`;
}

export const minimaxM2Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, sectionOpen, sectionClose, [minimaxInvokeGrammar], {
      valueSpans: parameterValues,
    }),
  ],
  prompt: {
    introduction:
      '# Tools\nYou may call one or more tools to assist with the user query.\nHere are the tools available in JSONSchema format:',
    renderToolList: (tools) => `<tools>\n${tools.map((tool) => `<tool>${formatJson(toolSignature(tool))}</tool>`).join('\n')}\n</tools>`,
    callInstructions: [
      'When making tool calls, use XML format to invoke tools and pass parameters:',
      sectionOpen,
      `${invokeOpen}"tool-name-1">`,
      `${parameterOpen}"param-key-1">param-value-1${parameterClose}`,
      `${parameterOpen}"param-key-2">param-value-2${parameterClose}`,
      '...',
      invokeClose,
      sectionClose,
      // Not in the template, whose example only shows it: what a value looks like.
      'Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON. Put several invokes in one block to call several tools.',
    ].join('\n'),
    resultInstructions: 'Tool results come back to you in the next user turn, each inside <response></response> tags.',
  },
  // The template's `'<think>' ~ '\n' ~ reasoning_content ~ '\n' ~ '</think>' ~ '\n\n'` before the content
  // (unsloth-MiniMax-M2.jinja), which it also splits back out of the content at `</think>`.
  renderReasoningInText: (reasoning, text) => `<think>\n${withoutEdgeNewlines(reasoning)}\n</think>\n\n${text}`,
  renderCall: (call) => `${sectionOpen}\n${renderInvoke(call)}${sectionClose}`,
  renderCalls: (calls) => `${sectionOpen}\n${calls.map(renderInvoke).join('')}${sectionClose}`,
  renderResults: (results) => results.map((result) => `<response>${resultText(result)}</response>`).join('\n'),
};
