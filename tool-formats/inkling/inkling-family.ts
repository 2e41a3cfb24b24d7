/** The inkling family (Inkling, TML typed content blocks): `<|message_model|>NAME<|content_invoke_tool_json|>{"name", "args"}<|end_message|>`. */
// Read: a turn is typed blocks, each after `<|message_model|>` (the generation prompt writes the first):
// `<|content_thinking|>` reasoning, `<|content_text|>` text, and tool blocks, the tool's name echoed
// before the invoke token and a JSON object with `name` and `args` after it; `<|end_message|>` ends a
// block and `<|content_model_end_sampling|>` the turn. The echo is read with the block, so it never
// reaches the text (a block written without `<|message_model|>` before it keeps its echo as text).
// Written: one tool block per call. The wording follows the parsers' documented format (the model's
// template was not available to read).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/inkling.cpp
// @see https://github.com/vllm-project/vllm/blob/main/vllm/frontend/processing/tool_parsers/inkling_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { hermesPrompt, hermesResults } from '../shared/hermes-layout.js';
import { excerpt, type BodyGrammar } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { parseLenientJson } from '../shared/lenient-json.js';
import { inklingBlockScanning, inklingEndTokens, inklingInvokeToken } from './inkling-block-scanner.js';

const family = 'inkling';
const blockOpen = '<|message_model|>';
const [endOfBlock = '<|end_message|>', endOfTurn = '<|content_model_end_sampling|>'] = inklingEndTokens;

/** `ECHO<|content_invoke_tool_json|>{"name": …, "args": {…}}`, the echo possibly empty. */
export const inklingCallGrammar: BodyGrammar = {
  id: 'inkling-invoke-json',
  accepts: (body) => /^[^\s<]*<\|content_invoke_tool_json\|>/.test(body),
  decode(body, { framing }) {
    const at = body.indexOf(inklingInvokeToken);
    const echo = body.slice(0, at);
    const json = body.slice(at + inklingInvokeToken.length).trim();
    const parsed = parseLenientJson(json);
    if (parsed.type !== 'value' || !isPlainObject(parsed.value))
      return { type: 'invalid', message: `The tool block holds no JSON object: ${excerpt(json)}`, incomplete: framing === 'unclosed' };
    const call = parsed.value;
    const name = typeof call['name'] === 'string' ? call['name'] : echo;
    return { type: 'calls', calls: [{ type: 'call', name, arguments: call['args'] ?? call['arguments'] ?? {} }] };
  },
};

function renderBlock(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  return `${blockOpen}${call.name}${inklingInvokeToken}${formatJson({ name: call.name, args: argumentsForRendering(call.arguments) })}${endOfBlock}`;
}

export const inklingFamily: FamilySpec = {
  family,
  envelopes: [
    {
      family,
      start: [blockOpen],
      end: [],
      kind: 'explicit',
      body: { type: 'custom', createScanner: inklingBlockScanning() },
      grammars: [inklingCallGrammar],
    },
    taggedEnvelope(family, inklingInvokeToken, [endOfBlock, endOfTurn], [inklingCallGrammar]),
  ],
  replyStartsInside: blockOpen,
  reasoningTags: [{ open: '<|content_thinking|>', close: endOfBlock, endsBefore: ['<|content_text|>', endOfTurn], scope: 'family' }],
  familyFramingTokens: ['<|content_text|>', endOfBlock, endOfTurn],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call a function, write a tool block: the function name, the invoke token, then a JSON object with the name and its arguments:',
      `${blockOpen}function_name${inklingInvokeToken}{"name": "function_name", "args": {"argument": "value"}}${endOfBlock}`,
      'Write one block per call.',
    ].join('\n'),
    resultInstructions: hermesPrompt.resultInstructions,
  },
  renderCall: renderBlock,
  renderCalls: (calls) => calls.map(renderBlock).join(''),
  renderResults: hermesResults,
};
