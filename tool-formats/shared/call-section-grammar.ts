/** A grammar for sections of call blocks, `<call start>…<call end><call start>…<call end>` (DeepSeek, Kimi-K2). */
// The section's own markers are the envelope; this grammar splits its body into calls and lets the
// family read each one. The same grammar serves an envelope whose start marker is the call start
// itself (a call written without its section), whose body is then one call.
import type { BodyFraming, BodyGrammar, DecodeContext, DecodedBody } from './body-grammar.js';
import type { CandidateCall } from './call-payload.js';
import { CharCodeSet } from './char-code-set.js';
import type { ValueSpan } from './envelope.js';
import { advanceJsonScan, JsonScanState } from './json-scan-state.js';

export type CallSectionSyntax = {
  /** The grammar id. */
  id: string;
  /** Opens each call inside the section. */
  callStart: string;
  /** Closes each call. */
  callEnd: string;
  /** Whether a body without `callStart` is one call of this family (its shape only). */
  acceptsCall(body: string): boolean;
  /** Reads one call (trimmed, without its markers); `framing` is the call's own, `context` the section's. */
  readCall(call: string, framing: BodyFraming, context: DecodeContext): DecodedBody;
  /**
   * How values are quoted inside a call, so that a call marker inside one (code showing a call) is
   * value text: `spans`, raw values from an open to a close tag (the envelope's own value spans);
   * `json`, JSON strings inside the call's brackets. Without it, markers count everywhere.
   */
  values?: { type: 'spans'; spans: readonly ValueSpan[] } | { type: 'json' };
};

type CallBlock = { text: string; framing: BodyFraming };

/** Finds the section's call markers outside values: built once per grammar. */
type MarkerFinder = (body: string, from: number) => { marker: 'start' | 'end'; index: number } | undefined;

export function callSectionGrammar(syntax: CallSectionSyntax): BodyGrammar {
  const findMarker = markerFinder(syntax);
  return {
    id: syntax.id,
    accepts: (body) => body.startsWith(syntax.callStart) || syntax.acceptsCall(body),
    decode: (body, context) => decodeSection(body, context, syntax, findMarker),
  };
}

function decodeSection(body: string, context: DecodeContext, syntax: CallSectionSyntax, findMarker: MarkerFinder): DecodedBody {
  const blocks = splitCallBlocks(body, syntax, context.framing, findMarker);
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
function splitCallBlocks(body: string, syntax: CallSectionSyntax, framing: BodyFraming, findMarker: MarkerFinder): CallBlock[] {
  const blocks: CallBlock[] = [];
  let segmentStart = 0;
  for (let index = 0; ; index++) {
    let end = -1;
    let nextStart = -1;
    for (let cursor = segmentStart; ;) {
      const hit = findMarker(body, cursor);
      if (hit === undefined) break;
      if (hit.marker === 'start') {
        nextStart = hit.index;
        break;
      }
      if (end < 0) end = hit.index;
      cursor = hit.index + syntax.callEnd.length;
    }
    const last = nextStart < 0;
    const text = body.slice(segmentStart, end >= 0 ? end : last ? body.length : nextStart).trim();
    // Before the first call start there is usually nothing; in a call written without its start it is the call.
    if (!(index === 0 && text === '' && end < 0)) blocks.push({ text, framing: end >= 0 || !last ? 'closed' : framing });
    if (last) return blocks;
    segmentStart = nextStart + syntax.callStart.length;
  }
}

function markerFinder(syntax: CallSectionSyntax): MarkerFinder {
  const { callStart, callEnd } = syntax;
  const markerAt = (body: string, index: number): 'start' | 'end' | undefined =>
    body.startsWith(callStart, index) ? 'start' : body.startsWith(callEnd, index) ? 'end' : undefined;
  const values = syntax.values;
  if (values === undefined)
    return (body, from) => {
      const start = body.indexOf(callStart, from);
      const end = body.indexOf(callEnd, from);
      if (end >= 0 && (start < 0 || end < start)) return { marker: 'end', index: end };
      return start >= 0 ? { marker: 'start', index: start } : undefined;
    };
  if (values.type === 'json') {
    const stops = new CharCodeSet([callStart.charCodeAt(0), callEnd.charCodeAt(0)]);
    return (body, from) => {
      // Each call's brackets are its own: one left open (a cut-off value) does not hide the next call.
      const state = new JsonScanState();
      for (let index = from; ; index++) {
        index = advanceJsonScan(state, body, index, stops, false);
        if (index >= body.length) return undefined;
        const marker = markerAt(body, index);
        if (marker !== undefined) return { marker, index };
        state.step(body.charCodeAt(index));
      }
    };
  }
  const spans = values.spans;
  // Only a character some marker starts with is looked at closer.
  const markers = [callStart, callEnd, ...spans.map((span) => span.open)];
  const firstCodes = CharCodeSet.ofFirstCharacters(markers);
  // Markers that all start alike (`<|plamo:…`) are found with the native search for that character.
  const sharedFirst = markers.every((marker) => marker[0] === callStart[0]) ? callStart[0] : undefined;
  const nextCandidate =
    sharedFirst === undefined
      ? (body: string, from: number) => {
          let index = from;
          while (index < body.length && !firstCodes.has(body.charCodeAt(index))) index++;
          return index;
        }
      : (body: string, from: number) => {
          const index = body.indexOf(sharedFirst, from);
          return index < 0 ? body.length : index;
        };
  return (body, from) => {
    for (let index = nextCandidate(body, from); index < body.length; index = nextCandidate(body, index + 1)) {
      const marker = markerAt(body, index);
      if (marker !== undefined) return { marker, index };
      const span = spans.find((candidate) => body.startsWith(candidate.open, index));
      if (span !== undefined) index = spanEnd(body, index + span.open.length, span) - 1;
    }
    return undefined;
  };
}

/** Where the value opened before `from` ends (after its close), counting values quoted inside it; the body's end when it does not. */
function spanEnd(body: string, from: number, span: ValueSpan): number {
  let depth = 0;
  for (let index = from; index < body.length;) {
    const close = body.indexOf(span.close, index);
    if (close < 0) return body.length;
    const nested = span.nested === undefined ? -1 : body.indexOf(span.nested, index);
    if (nested >= 0 && nested < close) {
      depth++;
      index = nested + (span.nested as string).length;
      continue;
    }
    if (depth === 0) return close + span.close.length;
    depth--;
    index = close + span.close.length;
  }
  return body.length;
}
