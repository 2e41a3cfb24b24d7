/** Failures of the anthropic adapter: HTTP errors, transport failures, timeouts, mid-stream errors, aborts. */
import { describe, expect, it } from 'vitest';
import { GatewayError, toGatewayError, type StreamEvent } from '../../../src/core/index.js';
import { sleep, startLoopbackServer, type RecordedRequest } from '../../helpers/loopback-server.js';
import { collectEvents, gatewayErrorOf, rejectionOf, testContext, testRequest } from './anthropic-test-kit.js';
import { newAdapter, upstream, useFakeAnthropic } from './anthropic-fixture.js';

useFakeAnthropic();

function terminalError(events: StreamEvent[]): GatewayError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected a final error event, got ${last?.type}`);
  expect(events.filter((event) => event.type === 'error' || event.type === 'finish')).toHaveLength(1);
  return last.error;
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (condition()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('anthropic errors before the stream', () => {
  it('keeps 429 and its retry-after', async () => {
    upstream.enqueue({
      type: 'http-error',
      status: 429,
      message: 'Number of requests has exceeded your rate limit',
      headers: { 'retry-after': '17' },
    });
    const error = await gatewayErrorOf(newAdapter().stream(testRequest(), testContext()));
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', retryAfter: '17' });
    expect(error.message).toBe('Number of requests has exceeded your rate limit');
  });

  it('keeps a 400 with the upstream message and body', async () => {
    upstream.enqueue({ type: 'http-error', status: 400, message: 'messages.1.content: tool_use ids must be unique' });
    const error = await gatewayErrorOf(newAdapter().stream(testRequest(), testContext()));
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', message: 'messages.1.content: tool_use ids must be unique' });
    expect(error.upstreamBody).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages.1.content: tool_use ids must be unique' },
    });
  });

  it.each([500, 529])('passes HTTP %i on', async (status) => {
    upstream.enqueue({ type: 'http-error', status, message: 'upstream trouble' });
    const error = await gatewayErrorOf(newAdapter().stream(testRequest(), testContext()));
    expect(error).toMatchObject({ status, type: 'upstream_error' });
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('upstream trouble');
  });

  it('reports a body it cannot serialise as its own failure (500), not an unreachable upstream', async () => {
    let parameters: Record<string, unknown> = { type: 'object' };
    for (let level = 0; level < 100_000; level++) parameters = { type: 'object', properties: { a: parameters } };
    const before = upstream.requests.length;
    const error = toGatewayError(
      await rejectionOf(newAdapter().stream(testRequest({ tools: [{ name: 'f', description: '', parameters }] }), testContext())),
    );
    expect(error).toMatchObject({ status: 500, type: 'server_error' });
    expect(error.message).not.toContain('unreachable');
    expect(upstream.requests.length).toBe(before);
  });

  it('reports a refused connection as 502', async () => {
    const closed = await startLoopbackServer(() => undefined);
    await closed.close();
    const error = await gatewayErrorOf(newAdapter({}, closed.url).stream(testRequest(), testContext()));
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports slow headers as 504', async () => {
    // undici checks headersTimeout on a coarse timer (about 1 s resolution), so the delay is generous.
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'late' }], delayMs: 3_000 });
    const adapter = newAdapter({ timeouts: { connectMs: 2_000, headersMs: 100, bodyMs: 5_000 } });
    const error = await gatewayErrorOf(adapter.stream(testRequest(), testContext()));
    expect(error).toMatchObject({ status: 504, type: 'timeout_error' });
  });
});

describe('anthropic errors inside the stream', () => {
  it('ends with a 502 overloaded error event on an overloaded_error event', async () => {
    upstream.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'partial answer' }],
      interruption: { type: 'error-event', afterEvents: 5, errorType: 'overloaded_error', message: 'Overloaded' },
    });
    const events = await collectEvents(await newAdapter().stream(testRequest(), testContext()));
    expect(events[0]?.type).toBe('response-start');
    expect(events.some((event) => event.type === 'text-delta')).toBe(true);
    const error = terminalError(events);
    expect(error).toMatchObject({ status: 502, code: 'overloaded' });
    expect(error.message).toContain('Overloaded');
  });

  it('keeps 429 for a rate_limit_error event', async () => {
    upstream.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'x' }],
      interruption: { type: 'error-event', afterEvents: 2, errorType: 'rate_limit_error', message: 'Slow down' },
    });
    const events = await collectEvents(await newAdapter().stream(testRequest(), testContext()));
    expect(terminalError(events)).toMatchObject({ status: 429, type: 'rate_limit_error', message: 'Slow down' });
  });

  it('reports a body that ends without message_stop', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'cut short' }], interruption: { type: 'end', afterEvents: 6 } });
    const events = await collectEvents(await newAdapter().stream(testRequest(), testContext()));
    const error = terminalError(events);
    expect(error.status).toBe(502);
    expect(error.message).toContain('stream ended early');
  });

  it('reports a connection destroyed mid-body as 502', async () => {
    upstream.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'cut short' }],
      interruption: { type: 'destroy', afterEvents: 4 },
    });
    const events = await collectEvents(await newAdapter().stream(testRequest(), testContext()));
    expect(terminalError(events).status).toBe(502);
  });

  it('reports a silent body as a 504 timeout', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'stalls' }], interruption: { type: 'hold', afterEvents: 3 } });
    const adapter = newAdapter({ timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 150 } });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(terminalError(events)).toMatchObject({ status: 504, type: 'timeout_error' });
  });
});

describe('anthropic cancellation', () => {
  it('aborts the upstream request when the client aborts', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'long answer' }], interruption: { type: 'hold', afterEvents: 4 } });
    const controller = new AbortController();
    const arrived: Promise<RecordedRequest> = upstream.nextRequest();
    const events = await newAdapter().stream(testRequest(), testContext(controller.signal));
    const iterator = events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'response-start' });
    const recorded = await arrived;
    expect(recorded.aborted).toBe(false);
    controller.abort();
    const rest: StreamEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)?.type).toBe('error');
    await waitFor(() => recorded.aborted, 'the upstream to see the abort');
  });

  it('aborts a request still waiting for headers', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'late' }], delayMs: 1_000 });
    const controller = new AbortController();
    const arrived = upstream.nextRequest();
    const pending = newAdapter().stream(testRequest(), testContext(controller.signal));
    const recorded = await arrived;
    controller.abort();
    const error = await rejectionOf(pending);
    expect(GatewayError.isInstance(error) && error.code).toBe('client_closed_request');
    await waitFor(() => recorded.aborted, 'the upstream to see the abort');
  });

  it('destroys the upstream body when the consumer stops iterating', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'never read' }], interruption: { type: 'hold', afterEvents: 4 } });
    const arrived = upstream.nextRequest();
    const events = await newAdapter().stream(testRequest(), testContext());
    for await (const event of events) if (event.type === 'text-delta') break;
    const recorded = await arrived;
    await waitFor(() => recorded.aborted, 'the upstream to see the body destroyed');
  });
});
