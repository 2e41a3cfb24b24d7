/** The body of a Harmony tool message: `RECIPIENT [header]<|message|>{json arguments}`. */
// The recipient is `functions.NAME` (the roster strips the namespace), or a bare name as some
// gpt-oss replies write it. The header between recipient and `<|message|>` carries the channel (role
// header form) and the content type (`json`, `<|constrain|>json`); the arguments are JSON whatever it
// says, read leniently. Text after the JSON value (a stray `}` or a sentence) is ignored.
// @see https://github.com/openai/harmony/blob/main/docs/format.md#receiving-tool-calls
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { isJsonOpenerCode } from '../shared/body-scanner.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { normalizeCallPayload } from '../shared/call-payload.js';
import { readLenientJson, skipSpace } from '../shared/lenient-json.js';
import { parameterNames } from '../shared/tool-roster.js';
import { messageMarker } from './harmony-message-scanner.js';

const recipientPattern = /^[^\s<]+/;
const namespacePrefix = 'functions.';
const atemContent = /^[^\s<]+<\|message\|>\s*<atem:/;

export const harmonyRecipientGrammar: BodyGrammar = {
  id: 'harmony-recipient',
  // MuseGlimmer's tool messages share the role header; their ATEM content is that family's to read.
  accepts: (body) => recipientPattern.test(body) && !atemContent.test(body),
  decode(body: string, context: DecodeContext): DecodedBody {
    const recipient = recipientPattern.exec(body)?.[0] ?? '';
    const messageAt = body.indexOf(messageMarker);
    if (messageAt < 0) {
      return {
        type: 'invalid',
        message: `The message to "${recipient}" has no ${messageMarker}`,
        incomplete: context.framing === 'unclosed',
      };
    }
    // An unknown recipient (a built-in tool such as `browser.search`) is reported as unavailable,
    // whatever its content looks like.
    const tool = context.roster.resolve(recipient);
    if (tool === undefined) return { type: 'calls', calls: [{ type: 'call', name: recipient, arguments: {} }] };
    const content = body.slice(messageAt + messageMarker.length);
    const start = skipSpace(content, 0);
    if (start >= content.length) return { type: 'calls', calls: [{ type: 'call', name: recipient, arguments: {} }] };
    const read = readLenientJson(content, start, { closeOpenBrackets: context.framing === 'closed' });
    if (read.type === 'value')
      return { type: 'calls', calls: [{ type: 'call', name: recipient, arguments: unwrapCallPayload(read.value, recipient) }] };
    // gpt-oss writes code, not JSON, to a `python`-like tool (`to=python code<|message|>print(1)`):
    // with one parameter there is no doubt where it goes. Only a closed message, never a cut-off one.
    const [only, ...others] = parameterNames(tool);
    if (context.framing === 'closed' && only !== undefined && others.length === 0 && !isJsonOpenerCode(content.charCodeAt(start))) {
      return { type: 'calls', calls: [{ type: 'call', name: recipient, arguments: { [only]: content.trim() } }] };
    }
    return { type: 'invalid', message: `Unreadable arguments for "${recipient}": ${read.message}`, incomplete: read.incomplete };
  },
};

/**
 * gpt-oss sometimes writes the whole call object as the message, `{"name": "NAME", "arguments": {…},
 * "call_id": null}`; only when it names the recipient itself are its arguments the call's.
 */
function unwrapCallPayload(value: unknown, recipient: string): unknown {
  if (!isPlainObject(value) || typeof value['name'] !== 'string' || !('arguments' in value || 'parameters' in value)) return value;
  if (withoutNamespace(value['name']) !== withoutNamespace(recipient)) return value;
  const [call] = normalizeCallPayload(value, 'lenient') ?? [];
  return call?.type === 'call' ? call.arguments : value;
}

function withoutNamespace(name: string): string {
  return name.startsWith(namespacePrefix) ? name.slice(namespacePrefix.length) : name;
}
