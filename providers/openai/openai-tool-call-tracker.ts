/**
 * Accumulates streamed tool-call fragments from OpenAI-compatible servers into well-formed
 * start/delta/end events with indexes 0..n, tolerating real-server quirks: a first fragment
 * without a name, ids repeated on every fragment, arguments sent as an object, and parallel
 * calls that collide on index 0 (Gemini-style) but carry different ids.
 */
import { generateCallId } from '../../src/core/random-id.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';

export type ToolCallFragment = {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
};

type TrackedCall = {
  index: number;
  id: string | undefined;
  name: string | undefined;
  started: boolean;
  /** Argument text received before the name was known. */
  pending: string;
  arguments: string;
};

function argumentText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : stringifyDeepJson(value);
}

export class OpenAiToolCallTracker {
  private readonly byUpstreamKey = new Map<number, TrackedCall>();
  private readonly calls: TrackedCall[] = [];
  private startedCount = 0;

  /** How many calls have been announced so far. */
  get count(): number {
    return this.startedCount;
  }

  push(fragment: ToolCallFragment): StreamEvent[] {
    const key = typeof fragment.index === 'number' ? fragment.index : this.calls.length === 0 ? 0 : this.keyForMissingIndex(fragment);
    let call = this.byUpstreamKey.get(key);
    const incomingId = fragment.id ?? undefined;
    if (call && incomingId && call.id && incomingId !== call.id) call = undefined;
    const events: StreamEvent[] = [];
    if (!call) {
      call = { index: -1, id: incomingId, name: undefined, started: false, pending: '', arguments: '' };
      this.calls.push(call);
      this.byUpstreamKey.set(key, call);
    }
    if (!call.id && incomingId) call.id = incomingId;
    const name = fragment.function?.name;
    if (name && !call.name) call.name = name;
    const text = argumentText(fragment.function?.arguments);
    if (!call.started) {
      call.pending += text;
      if (call.name) {
        call.started = true;
        // Indexes are given at announcement so that a fragment that never gets a name leaves no hole.
        call.index = this.startedCount++;
        call.id ??= generateCallId();
        events.push({ type: 'tool-call-start', index: call.index, id: call.id, name: call.name });
        if (call.pending) events.push(...this.appendArguments(call, call.pending));
        call.pending = '';
      }
    } else if (text) events.push(...this.appendArguments(call, text));
    return events;
  }

  /** Ends every call in order; calls that never got a name are dropped (nothing callable). */
  finish(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const call of this.calls) {
      if (!call.started) continue;
      if (call.arguments === '') events.push(...this.appendArguments(call, '{}'));
      events.push({ type: 'tool-call-end', index: call.index, arguments: call.arguments });
    }
    return events;
  }

  private appendArguments(call: TrackedCall, text: string): StreamEvent[] {
    call.arguments += text;
    return [{ type: 'tool-call-delta', index: call.index, argumentsDelta: text }];
  }

  /** Without an index, a fragment with a new id is a new call; otherwise it continues the last one. */
  private keyForMissingIndex(fragment: ToolCallFragment): number {
    const last = this.calls[this.calls.length - 1];
    if (last && fragment.id && last.id && fragment.id !== last.id) return -this.calls.length - 1;
    for (const [key, call] of this.byUpstreamKey) if (call === last) return key;
    return 0;
  }
}
