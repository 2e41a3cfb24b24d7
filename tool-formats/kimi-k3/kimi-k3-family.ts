/** The kimi-k3 family (Moonshot Kimi K3): XTML channels, `<|open|>tools<|sep|>` sections of `call tool="N"` tags with typed arguments. */
// Read: the template opens the assistant message and its `think` channel in the generation prompt, so
// replies begin inside reasoning (`<|close|>think<|sep|>` ends it; the table assumes it for Kimi K3);
// the `response` channel's tags and the message end are framing; calls as in `kimi-k3-call-grammar.ts`.
// Written: the template's tool declaration (sorted JSON in a fence) and its call markup; results in the
// template's `message role="tool"` blocks, in a user turn.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/Kimi-K3.jinja
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k3_tool_parser.py
import type { ToolCallPart, ToolDefinition } from '../../src/core/index.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering } from '../shared/format-json.js';
import { toolAsFunction } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';
import { argumentClose, callClose, jsonClose, kimiK3CallGrammar, kimiK3Values } from './kimi-k3-call-grammar.js';
import { closeTag, endOfMessage, openTag, openTagWith } from './kimi-k3-tokens.js';

const family = 'kimi-k3';
const toolsOpen = openTag('tools');
const toolsClose = closeTag('tools');

/** The template's `xtml_type`: JSON Schema's integer is a number. */
function xtmlType(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (value === null) return 'null';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

function renderK3Call(call: Pick<ToolCallPart, 'name' | 'arguments'>, index: number): string {
  const value = argumentsForRendering(call.arguments);
  const body =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>)
          .map(
            ([key, member]) =>
              `${openTagWith('argument', [
                ['key', key],
                ['type', xtmlType(member)],
              ])}${typeof member === 'string' ? member : JSON.stringify(member)}${argumentClose}`,
          )
          .join('')
      : `${openTagWith('json', [['type', 'object']])}${call.arguments}${jsonClose}`;
  return `${openTagWith('call', [
    ['tool', call.name],
    ['index', index],
  ])}${body}${callClose}`;
}

/** The template's `json_sorted`: keys sorted at every level, no spaces. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${sortedJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const kimiK3Family: FamilySpec = {
  family,
  envelopes: [
    taggedEnvelope(family, toolsOpen, toolsClose, [kimiK3CallGrammar], {
      valueSpans: kimiK3Values,
    }),
  ],
  reasoningTags: [{ open: openTag('think'), close: closeTag('think') }],
  framingTokens: [openTag('response'), closeTag('response'), closeTag('message'), endOfMessage],
  prompt: {
    introduction: '# Tools\nHere are the available tools, described in JSONSchema.',
    renderToolList: (tools: readonly ToolDefinition[]) => `\`\`\`json\n${sortedJson(tools.map(toolAsFunction))}\n\`\`\``,
    callInstructions: [
      `To call tools, write after your response one ${toolsOpen} section holding one call tag per call, numbered from 1:`,
      `${toolsOpen}${openTagWith('call', [
        ['tool', 'tool_name'],
        ['index', 1],
      ])}${openTagWith('argument', [
        ['key', 'argument_name'],
        ['type', 'string'],
      ])}value${argumentClose}${callClose}${toolsClose}`,
      'Give each argument its type (string, number, boolean, null, object or array); write string values as they are, and every other value as JSON.',
    ].join('\n'),
    resultInstructions: 'Tool results come back to you in the next user turn, each in a message block with role="tool".',
  },
  renderCall: (call) => toolsOpen + renderK3Call(call, 1) + toolsClose,
  renderCalls: (calls) => toolsOpen + calls.map((call, index) => renderK3Call(call, index + 1)).join('') + toolsClose,
  renderResults: (results) =>
    results
      .map(
        (result, index) =>
          `${openTagWith('message', [
            ['role', 'tool'],
            ['tool', result.toolName ?? 'tool'],
            ['index', index + 1],
          ])}${resultText(result)}${closeTag('message')}${endOfMessage}`,
      )
      .join(''),
};
