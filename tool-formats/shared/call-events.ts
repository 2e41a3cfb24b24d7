/** Applies the roster rule and argument normalization to decoded calls, producing parser events. */
import type { ParsedEvent } from '../../src/core/index.js';
import type { DecodedBody } from './body-grammar.js';
import { normalizeCallArguments } from './call-arguments.js';
import type { ToolRoster } from './tool-roster.js';

type CallOutcome = Extract<ParsedEvent, { type: 'tool-call' | 'tool-call-rejected' }>;

/** Events for a decoded body; `raw` is the markup reported with a rejection. */
export function callEvents(decoded: DecodedBody, roster: ToolRoster, raw: string): CallOutcome[] {
  if (decoded.type === 'invalid') return [{ type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: decoded.message, text: raw }];
  return decoded.calls.map((call): CallOutcome => {
    if (call.type === 'invalid') return { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: call.message, text: raw };
    const tool = roster.resolve(call.name);
    if (tool === undefined) {
      return {
        type: 'tool-call-rejected',
        code: 'unavailable_tool',
        message: `The model called "${call.name}", which is not an available tool`,
        text: raw,
      };
    }
    const callArguments = normalizeCallArguments(call.arguments);
    if (callArguments.type === 'error') {
      return {
        type: 'tool-call-rejected',
        code: 'invalid_tool_syntax',
        message: `Call to "${tool.name}": ${callArguments.message}`,
        text: raw,
      };
    }
    const serialized = JSON.stringify(callArguments.value);
    // Built whole rather than spread: one object per call, and the same key order either way.
    return call.id === undefined
      ? { type: 'tool-call', name: tool.name, arguments: serialized }
      : { type: 'tool-call', name: tool.name, arguments: serialized, id: call.id };
  });
}

/** Bare JSON is a call batch only when every element has the call shape and one names an offered tool. */
export function isOfferedCallBatch(decoded: DecodedBody, roster: ToolRoster): boolean {
  if (decoded.type === 'invalid' || decoded.calls.length === 0) return false;
  return (
    decoded.calls.every((call) => call.type === 'call') &&
    decoded.calls.some((call) => call.type === 'call' && roster.resolve(call.name) !== undefined)
  );
}

/** A body without leading whitespace, stray `>` and repeated start markers, and without trailing whitespace. */
export function stripEnvelopeNoise(body: string, start: string): string {
  let index = 0;
  for (;;) {
    while (index < body.length && /[\s>]/.test(body[index] as string)) index++;
    if (start !== '' && body.startsWith(start, index)) index += start.length;
    else break;
  }
  return body.slice(index).trimEnd();
}
