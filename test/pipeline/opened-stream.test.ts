/** A stream another target could take over is opened before the client sees a byte: its failure then hands over, its events pass unchanged. */
import { describe, expect, it } from 'vitest';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { openedStream } from '../../src/pipeline/opened-stream.js';

const start: StreamEvent = { type: 'response-start', id: 'chatcmpl-1', model: 'm', warnings: [] };
const finish: StreamEvent = { type: 'finish', reason: { unified: 'stop' }, usage: { inputTokens: 1, outputTokens: 2 } };
const engineDied: StreamEvent = {
  type: 'error',
  error: gatewayError('upstream_stream_error', { message: "Upstream provider 'box' failed mid-stream: engine died" }),
};

/** A source that records whether its reader closed it, each event after `delayMs`. */
function source(events: StreamEvent[], delayMs = 0): { events: AsyncIterable<StreamEvent>; closed: () => boolean } {
  let closed = false;
  async function* generate(): AsyncGenerator<StreamEvent> {
    try {
      for (const event of events) {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        yield event;
      }
    } finally {
      closed = true;
    }
  }
  return { events: generate(), closed: () => closed };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('openedStream', () => {
  it('rejects with the failure a stream opened with, before any output, and closes the stream', async () => {
    const upstream = source([start, engineDied, finish]);
    await expect(openedStream(upstream.events)).rejects.toBe((engineDied as { error: unknown }).error);
    expect(upstream.closed()).toBe(true);
  });

  it('passes every event on, the opening included, once the first output came', async () => {
    const events: StreamEvent[] = [start, { type: 'text-delta', delta: 'hi' }, engineDied];
    const opened = await openedStream(source(events).events);
    // A failure after output is the client's: it reaches the reply as it came.
    expect(await collect(opened)).toEqual(events);
  });

  it('an error that says nothing of the server (a rate limit in the stream) is the client’s, passed on', async () => {
    const rateLimited: StreamEvent = {
      type: 'error',
      error: gatewayError('upstream_event_error', {
        status: 429,
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: 'slow down',
      }),
    };
    const opened = await openedStream(source([start, rateLimited]).events);
    expect(await collect(opened)).toEqual([start, rateLimited]);
  });

  it('waits no longer than its bound: a slow first token passes, every event in order', async () => {
    const events: StreamEvent[] = [start, { type: 'text-delta', delta: 'late' }, finish];
    const started = performance.now();
    const opened = await openedStream(source(events, 150).events, 200);
    // The bound passed while the first token was still being read: the read goes on in the replay.
    expect(performance.now() - started).toBeLessThan(290);
    expect(await collect(opened)).toEqual(events);
  });

  it('a stream that ends at once is passed on as it is', async () => {
    expect(await collect(await openedStream(source([start]).events))).toEqual([start]);
  });

  it('a reader that stops early closes the upstream stream', async () => {
    const upstream = source([start, { type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' }, finish]);
    const opened = await openedStream(upstream.events);
    for await (const event of opened) if (event.type === 'text-delta') break;
    expect(upstream.closed()).toBe(true);
  });
});
