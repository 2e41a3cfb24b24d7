/** The rwkv family (RWKV-7 and later chat models): `**Tool Call:**` and a JSON fence holding `{"name", "arguments"}`. */
// Read: the bold marker, then a ```json fence with one call, the fence's close ending it (the line break
// or space between marker and fence may vary); the older `<tool_call>{…}` line is Hermes' syntax, which
// every family reads. vLLM's parser also rewrites some agent tools' argument names (`filePath`): not done
// here, the roster and the client's schema decide. Written: the marker and fence per call. The wording
// follows the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/rwkv_tool_parser.py
import { hermesPrompt, hermesResults } from '../shared/hermes-layout.js';
import type { Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';

const family = 'rwkv';
const marker = '**Tool Call:**';
export const rwkvStarts = [`${marker}\n\`\`\`json`, `${marker} \`\`\`json`, `${marker}\n\n\`\`\`json`];

const toolCallEnvelope: Envelope = {
  family,
  start: rwkvStarts,
  end: ['```'],
  kind: 'explicit',
  body: { type: 'tagged' },
  grammars: [jsonCallGrammar],
};

export const rwkvFamily: FamilySpec = {
  family,
  envelopes: [toolCallEnvelope],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      `To call a function, write ${marker} and then a JSON block with the function name and its arguments:`,
      marker,
      '```json',
      '{"name": "function_name", "arguments": {"argument": "value"}}',
      '```',
    ].join('\n'),
    resultInstructions: hermesPrompt.resultInstructions,
  },
  renderCall: (call) =>
    `${marker}\n\`\`\`json\n${formatJson({ name: call.name, arguments: argumentsForRendering(call.arguments) })}\n\`\`\``,
  renderResults: hermesResults,
};
