/** A grammar for sections of call blocks, `<call start>…<call end><call start>…<call end>` (DeepSeek, Kimi-K2). */
// The section's own markers are the envelope; this grammar splits its body into calls and lets the
// family read each one. The same grammar serves an envelope whose start marker is the call start
// itself (a call written without its section), whose body is then one call.
import type { BodyFraming, BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import type { CandidateCall } from './call-payload.js';

export type CallSectionSyntax = {
  /** The grammar id. */
  id: string;
  /** Opens each call inside the section. */
  callStart: string;
  /** Closes each call. */
  callEnd: string;
  /** Whether a body without `callStart` is one call of this family (its shape only). */
  acceptsCall(body: string): boolean;
  /** Reads one call (trimmed, without its markers); `framing` is the call's own (the context's roster types XML values). */
  readCall(call: string, framing: BodyFraming, context: DecodeContext): DecodedBody;
};

type CallBlock = { text: string; framing: BodyFraming };

export function callSectionGrammar(syntax: CallSectionSyntax): BodyGrammar {
  return {
    id: syntax.id,
    accepts: (body) => body.startsWith(syntax.callStart) || syntax.acceptsCall(body),
    decode: (body, context) => decodeSection(body, context, syntax),
  };
}

function decodeSection(body: string, context: DecodeContext, syntax: CallSectionSyntax): DecodedBody {
  const blocks = splitCallBlocks(body, syntax, context.framing);
  const calls: CandidateCall[] = [];
  let problem: Extract<DecodedBody, { type: 'invalid' }> = { type: 'invalid', message: 'The tool-call section holds no call' };
  for (const block of blocks) {
    const decoded = syntax.readCall(block.text, block.framing, context);
    if (decoded.type === 'calls') {
      calls.push(...decoded.calls);
      continue;
    }
    problem = decoded;
    // A call the reply ended in is reported as cut off, never read as a call.
    const cutOff = block.framing === 'unclosed' && decoded.incomplete === true;
    calls.push({ type: 'invalid', message: cutOff ? `The reply ended inside a call: ${decoded.message}` : decoded.message });
  }
  return calls.some((call) => call.type === 'call') ? { type: 'calls', calls } : problem;
}

/**
 * The calls of a section: text before each `callEnd` (what follows it up to the next start is
 * separator). A block without its end marker is read with the section's framing when it is the last
 * one, and as closed when another call follows it (a forgotten end marker).
 */
function splitCallBlocks(body: string, syntax: CallSectionSyntax, framing: BodyFraming): CallBlock[] {
  const segments = body.split(syntax.callStart);
  const blocks: CallBlock[] = [];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const end = segment.indexOf(syntax.callEnd);
    const text = (end >= 0 ? segment.slice(0, end) : segment).trim();
    // Before the first call start there is usually nothing; in a call written without its start it is the call.
    if (index === 0 && text === '' && end < 0) return;
    blocks.push({ text, framing: end >= 0 || !last ? 'closed' : framing });
  });
  return blocks;
}
