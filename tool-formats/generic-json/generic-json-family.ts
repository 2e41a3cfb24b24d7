/** The generic-json family (unknown models, and the fallback): ```tool_call fences holding {"name", "arguments"}. */
// Its parser also takes ```json fences, a whole message that is one call object, arrays,
// {"tool_calls": […]} and the OpenAI shape, when they name an offered tool.
import { fencedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import { fencedResults } from '../shared/tool-result-text.js';

const family = 'generic-json';

export const genericJsonFamily: FamilySpec = {
  family,
  envelopes: [
    fencedEnvelope(family, ['tool_call', 'tool_calls'], 'explicit', [jsonCallGrammar, pythonicCallGrammar]),
    // A json fence is usually an answer: it is a call only when it is one to an offered tool.
    fencedEnvelope(family, ['json', 'JSON'], 'candidate', [jsonCallGrammar]),
  ],
  bareGrammars: [jsonCallGrammar],
  prompt: {
    introduction: 'You have access to the following tools:',
    renderToolList: (tools) =>
      tools
        .map((tool) => {
          const description = tool.description === undefined || tool.description === '' ? '' : `: ${tool.description}`;
          return `- ${tool.name}${description}\n  Parameters (JSON Schema): ${formatJson(tool.parameters)}`;
        })
        .join('\n'),
    callInstructions: [
      'To call a tool, reply with a fenced tool_call block holding one JSON object with the tool name and its arguments:',
      '```tool_call',
      '{"name": "tool_name", "arguments": {"argument_name": "value"}}',
      '```',
      'Write one block per call; several blocks call several tools. When no tool is needed, answer in plain text. Never invent tool results.',
    ].join('\n'),
    resultInstructions: 'Tool results come back to you in the next user turn, each in a fenced tool_response block.',
  },
  renderCall: (call) => '```tool_call\n' + formatJson({ name: call.name, arguments: argumentsForRendering(call.arguments) }) + '\n```',
  renderResults: fencedResults('tool_response'),
};
