/** The cwm family (Meta Code World Model): `<tool: LABEL>\nNAME rest\n</tool>` blocks. */
// Read: the label in the open tag says nothing about the call; the first word of the body is the tool's
// name and the rest its input: JSON arguments when it is a JSON object, else one `command` argument
// holding the text as written (CWM's `bash` tool), as vLLM's cwm parser reads it. A block the reply ended
// in is never a call. Written: the same block, with the JSON arguments, or a `command`-only call's text.
// The wording follows the parser's documented format (the model's template was not available to read).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/cwm_tool_parser.py
import type { ToolCallPart } from '../../src/core/index.js';
import { hermesPrompt, hermesResults } from '../shared/hermes-layout.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { excerpt, type BodyGrammar } from '../shared/body-grammar.js';
import { taggedEnvelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering, formatJson } from '../shared/format-json.js';
import { parseLenientJson } from '../shared/lenient-json.js';

const family = 'cwm';
const blockOpen = '<tool:';
const blockClose = '</tool>';
/** The rest of the open tag (` function>`), the name, then the input. */
const block = /^\s*[^\s<>]+\s*>\s*([^\s<>{}[\]"']+)[ \t]*\n?([\s\S]*)$/;

export const cwmBlockGrammar: BodyGrammar = {
  id: 'cwm-tool-block',
  accepts: (body) => /^\s*[^\s<>]+\s*>/.test(body),
  decode(body, { framing }) {
    const match = block.exec(body);
    if (match === null) return { type: 'invalid', message: `Unreadable tool block: ${excerpt(body)}`, incomplete: framing === 'unclosed' };
    const name = match[1] ?? '';
    // The input has no end of its own: a block the reply ended in may have lost some of it.
    if (framing === 'unclosed')
      return { type: 'invalid', message: `The call to "${name}" is cut off before ${blockClose}`, incomplete: true };
    const input = (match[2] ?? '').trim();
    const parsed = input.startsWith('{') ? parseLenientJson(input) : undefined;
    const callArguments = parsed?.type === 'value' && isPlainObject(parsed.value) ? parsed.value : { command: input };
    return { type: 'calls', calls: [{ type: 'call', name, arguments: callArguments }] };
  },
};

function renderBlock(call: Pick<ToolCallPart, 'name' | 'arguments'>): string {
  const value = argumentsForRendering(call.arguments);
  const keys = isPlainObject(value) ? Object.keys(value) : [];
  const command = isPlainObject(value) && keys.length === 1 && typeof value['command'] === 'string' ? value['command'] : undefined;
  // A command reads back as written only when trimming and JSON leave it alone; else JSON, whose `</` are
  // written `<\/` (the same strings), so that the block's close tag is the only one in it.
  const asText = command !== undefined && command === command.trim() && command !== '' && !command.startsWith('{');
  return `${blockOpen} function>\n${call.name}${asText ? ` ${command}` : `\n${formatJson(value).replaceAll('</', '<\\/')}`}\n${blockClose}`;
}

export const cwmFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, blockOpen, blockClose, [cwmBlockGrammar])],
  prompt: {
    introduction: hermesPrompt.introduction,
    renderToolList: hermesPrompt.renderToolList,
    callInstructions: [
      'To call a tool, write a tool block: the tool name, then its input, JSON arguments or, for a tool that takes one command, the command itself:',
      `${blockOpen} function>`,
      'tool_name {"argument": "value"}',
      blockClose,
    ].join('\n'),
    resultInstructions: hermesPrompt.resultInstructions,
  },
  renderCall: renderBlock,
  renderResults: hermesResults,
};
