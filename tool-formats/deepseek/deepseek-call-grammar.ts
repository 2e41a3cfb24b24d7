/** The calls inside DeepSeek's tool-call section, in the V3 / R1 and the V3.1 forms. */
// V3 / R1: `function<｜tool▁sep｜>NAME\n```json\n{…}\n```` (the type, then the name and a JSON fence).
// V3.1:    `NAME<｜tool▁sep｜>{…}` (no type, no fence). Each sits between `<｜tool▁call▁begin｜>` and
// `<｜tool▁call▁end｜>`; the section holds one or more.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv3_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv31_tool_parser.py
import type { BodyFraming, DecodedBody } from '../shared/body-grammar.js';
import { callSectionGrammar } from '../shared/call-section-grammar.js';
import { readArgumentsObject } from '../shared/json-arguments.js';
import { toolCallBegin, toolCallEnd, toolSeparator } from '../shared/deepseek-tokens.js';

/** The call type V3 writes before the separator; V3.1 writes the name there instead. */
const functionType = 'function';
const fenceOpener = /^```[\w-]*/;
const fenceCloser = /```$/;
/** A name (or the type) before the separator, nothing else. */
const headShape = /^[^\s<>{}]*$/;

export const deepseekCallGrammar = callSectionGrammar({
  id: 'deepseek-calls',
  // The arguments are JSON: a call's end token inside one of its strings is text.
  values: { type: 'json' },
  callStart: toolCallBegin,
  callEnd: toolCallEnd,
  acceptsCall(body) {
    const separator = body.indexOf(toolSeparator);
    return separator >= 0 && headShape.test(body.slice(0, separator).trim());
  },
  readCall: readDeepSeekCall,
});

function readDeepSeekCall(call: string, framing: BodyFraming): DecodedBody {
  const separator = call.indexOf(toolSeparator);
  if (separator < 0) return { type: 'invalid', message: `No ${toolSeparator} in the call`, incomplete: framing === 'unclosed' };
  const head = call.slice(0, separator).trim();
  const rest = call.slice(separator + toolSeparator.length);
  let name = head;
  let argumentsText = rest;
  if (head === '' || head === functionType) {
    // V3: the name ends its line, before the fence or the JSON.
    const nameEnd = rest.search(/[\n`{]/);
    name = (nameEnd < 0 ? rest : rest.slice(0, nameEnd)).trim();
    argumentsText = nameEnd < 0 ? '' : rest.slice(nameEnd);
  }
  if (name === '' || !headShape.test(name))
    return { type: 'invalid', message: `Unreadable tool name "${name}"`, incomplete: framing === 'unclosed' && name === '' };
  const read = readArgumentsObject(withoutFence(argumentsText), name, framing);
  if (read.type === 'invalid') return read;
  return { type: 'calls', calls: [{ type: 'call', name, arguments: read.value }] };
}

/** The JSON inside a ```` ```json ```` fence (its closer may be missing in a cut-off reply); other text as is. */
function withoutFence(text: string): string {
  const trimmed = text.trim();
  if (!fenceOpener.test(trimmed)) return trimmed;
  return trimmed.replace(fenceOpener, '').replace(fenceCloser, '').trim();
}
