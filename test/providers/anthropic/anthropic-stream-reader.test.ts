/** The SSE-to-event state machine on its own: chunking independence and tolerance of odd input. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import { SseDecoder } from '../../../src/http/sse-decoder.js';
import { AnthropicStreamReader } from '../../../providers/anthropic/anthropic-stream-reader.js';
import { renderAnthropicStreamEvents, toSseFrame, type FakeAnthropicMessageReply } from '../../helpers/fake-anthropic-upstream.js';

function newReader() {
  return new AnthropicStreamReader({ provider: 'claude', model: 'claude-fake-1', warnings: [] });
}

/** Feeds the body in the given pieces, then ends it. */
function readPieces(pieces: (string | Uint8Array)[]): StreamEvent[] {
  const decoder = new SseDecoder();
  const reader = newReader();
  const events: StreamEvent[] = [];
  for (const piece of pieces) for (const event of decoder.push(piece)) events.push(...reader.push(event));
  for (const event of decoder.finish()) events.push(...reader.push(event));
  events.push(...reader.end());
  return events;
}

/** Cuts bytes (not characters), as the network does: a multi-byte character may be split. */
function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((left, right) => left - right);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

const reply: FakeAnthropicMessageReply = {
  type: 'message',
  id: 'msg_split',
  fragmentSize: 2,
  content: [
    { type: 'thinking', thinking: 'Plan: call twice. ✓', signature: 'c2ln' },
    { type: 'text', text: 'Calling tools…\n' },
    { type: 'tool_use', id: 'toolu_1', name: 'search', input: { query: 'événement "quoted"', limit: 3 } },
    { type: 'tool_use', id: 'toolu_2', name: 'search', input: { query: 'second' } },
  ],
  usage: { input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 4 },
};

describe('AnthropicStreamReader', () => {
  it('produces the same events for any split of the byte stream', () => {
    const bytes = new TextEncoder().encode(renderAnthropicStreamEvents(reply).map(toSseFrame).join(''));
    const whole = readPieces([bytes]);
    expect(whole.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls' } });
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (cuts) => {
        expect(readPieces(splitAt(bytes, cuts))).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('ignores pings and unknown event types and blocks', () => {
    const frames = renderAnthropicStreamEvents({ type: 'message', id: 'msg_odd', content: [{ type: 'text', text: 'hi' }] });
    frames.splice(2, 0, { type: 'brand_new_event', value: 1 });
    frames.splice(3, 0, {
      type: 'content_block_start',
      index: 9,
      content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
    });
    frames.splice(4, 0, { type: 'content_block_delta', index: 9, delta: { type: 'input_json_delta', partial_json: '{"q":1}' } });
    frames.splice(5, 0, { type: 'content_block_stop', index: 9 });
    const events = readPieces([frames.map(toSseFrame).join('')]);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'finish']);
  });

  it('reports a body that ends before message_stop as an error, once', () => {
    const frames = renderAnthropicStreamEvents({ type: 'message', content: [{ type: 'text', text: 'cut' }] }).slice(0, -2);
    const events = readPieces([frames.map(toSseFrame).join('')]);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.error.status).toBe(502);
    expect(last.error.message).toContain('stream ended early');
    expect(events.filter((event) => event.type === 'error' || event.type === 'finish')).toHaveLength(1);
  });

  it('closes a tool call left open at message_stop', () => {
    const frames = renderAnthropicStreamEvents({
      type: 'message',
      content: [{ type: 'tool_use', id: 'toolu_o', name: 'run', input: { a: 1 } }],
    });
    const withoutStop = frames.filter((frame) => frame.type !== 'content_block_stop');
    const events = readPieces([withoutStop.map(toSseFrame).join('')]);
    expect(events.find((event) => event.type === 'tool-call-end')).toEqual({ type: 'tool-call-end', index: 0, arguments: '{"a":1}' });
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('ignores everything after the terminal event', () => {
    const reader = newReader();
    const frames = renderAnthropicStreamEvents({ type: 'message', content: [{ type: 'text', text: 'a' }] });
    const events = frames.flatMap((frame) => reader.push({ event: String(frame.type), data: JSON.stringify(frame) }));
    expect(reader.done).toBe(true);
    expect(reader.push({ event: 'message_stop', data: '{"type":"message_stop"}' })).toEqual([]);
    expect(reader.end()).toEqual([]);
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  });
});
