/** requestWholeBody: one upstream request read whole on undici's dispatch API, with aborts before and after the connection. */
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellationFromSignal, type Cancellation } from '../../src/core/cancellation.js';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { requestWholeBody } from '../../src/http/request-whole-body.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';

let server: LoopbackServer;
let agent: Agent;

beforeAll(async () => {
  server = await startLoopbackServer(async (request, response) => {
    if (request.path === '/split') {
      // A multi-byte character cut between two writes must still decode whole.
      const bytes = Buffer.from('{"text":"Grüße 🌍"}');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(bytes.subarray(0, 12));
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.end(bytes.subarray(12));
      return;
    }
    if (request.path === '/limited') {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"error":{"message":"slow down"}}');
      return;
    }
    if (request.path === '/large') {
      response.writeHead(200, { 'content-type': 'application/json' });
      for (let index = 0; index < 64 && !response.destroyed; index++) response.write(Buffer.alloc(16 * 1024, 'x'));
      response.end();
      return;
    }
    if (request.path === '/hold') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: request.body }));
  });
  // One connection, so that a second request queues behind a held one.
  agent = new Agent({ connections: 1 });
});

afterAll(async () => {
  await agent.destroy();
  await server.close();
});

const post = (path: string, signal?: Cancellation) =>
  requestWholeBody(agent, {
    origin: server.url,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
    signal,
  });

describe('requestWholeBody', () => {
  it('sends the body and resolves with status, headers and the decoded body', async () => {
    const response = await post('/echo');
    expect(response.statusCode).toBe(200);
    expect(response.header('Content-Type')).toBe('application/json');
    expect(response.header('x-not-sent')).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual({ echo: { a: 1 } });
  });

  it('decodes UTF-8 split across reads', async () => {
    expect(JSON.parse((await post('/split')).body)).toEqual({ text: 'Grüße 🌍' });
  });

  it('resolves an error status with its headers and body for the caller to judge', async () => {
    const response = await post('/limited');
    expect(response.statusCode).toBe(429);
    expect(response.header('retry-after')).toBe('7');
    expect(response.body).toContain('slow down');
  });

  it('rejects at once, with the reason, when the cancellation already fired', async () => {
    const cancellation = new RequestCancellation();
    const reason = new Error('client closed the connection');
    cancellation.abort(reason);
    await expect(post('/echo', cancellation)).rejects.toBe(reason);
  });

  it.each([
    ['a RequestCancellation', () => new RequestCancellation()],
    ['an AbortController seen as a Cancellation', () => new AbortController()],
  ] as const)('aborts a request in flight through %s, down to the upstream', async (_name, make) => {
    const source = make();
    const arrived = server.nextRequest();
    const pending = post('/hold', 'signal' in source ? cancellationFromSignal(source.signal) : source).catch((error: unknown) => error);
    const recorded = await arrived;
    source.abort(new Error('client closed the connection'));
    expect(await pending).toBeInstanceOf(Error);
    while (!recorded.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
    if (source instanceof RequestCancellation) expect(source.listenerCount('abort')).toBe(0);
  });

  it('aborts a request still queued behind a busy connection', async () => {
    const holder = new RequestCancellation();
    const held = post('/hold', holder).catch((error: unknown) => error);
    await server.nextRequest();
    const queued = new RequestCancellation();
    const waiting = post('/echo', queued).catch((error: unknown) => error);
    queued.abort(new Error('gone while queued'));
    expect(await waiting).toBeInstanceOf(Error);
    holder.abort(new Error('done holding'));
    expect(await held).toBeInstanceOf(Error);
  });

  it('rejects when the connection is refused', async () => {
    const closed = new Agent();
    try {
      await expect(
        requestWholeBody(closed, { origin: 'http://127.0.0.1:1', path: '/', method: 'GET', headers: {} }),
      ).rejects.toBeInstanceOf(Error);
    } finally {
      await closed.close();
    }
  });

  it('rejects past limit.maxBytes with a 502 upstream_response_too_large naming the provider', async () => {
    const error = await requestWholeBody(agent, {
      origin: server.url,
      path: '/large',
      method: 'POST',
      headers: {},
      body: '{}',
      limit: { maxBytes: 32 * 1024, provider: 'up' },
    }).catch((reason: unknown) => reason);
    expect(GatewayError.isInstance(error) && error.code).toBe('upstream_response_too_large');
    expect((error as GatewayError).message).toContain("'up'");
    // The one connection is free again for the next request.
    expect((await post('/echo')).statusCode).toBe(200);
  });

  it('reads a body of exactly limit.maxBytes', async () => {
    const response = await requestWholeBody(agent, {
      origin: server.url,
      path: '/large',
      method: 'POST',
      headers: {},
      body: '{}',
      limit: { maxBytes: 1024 * 1024, provider: 'up' },
    });
    expect(response.body.length).toBe(1024 * 1024);
  });

  it('rejects, rather than leaving the caller waiting forever, when the finished body cannot be decoded', async () => {
    // What V8 throws for a body past its longest string (~512 MB), without allocating one: a chunk whose decoding throws.
    const chunk = Buffer.from('x');
    const tooLong = new RangeError('Cannot create a string longer than 0x1fffffe8 characters');
    chunk.toString = () => {
      throw tooLong;
    };
    // Calls the handler as undici does: an exception from onComplete is handed to onError.
    const dispatcher = {
      dispatch(
        _options: unknown,
        handler: {
          onConnect(abort: () => void): void;
          onHeaders(status: number, headers: Buffer[]): boolean;
          onData(chunk: Buffer): boolean;
          onComplete(trailers: Buffer[]): void;
          onError(error: Error): void;
        },
      ) {
        handler.onConnect(() => undefined);
        handler.onHeaders(200, []);
        handler.onData(chunk);
        try {
          handler.onComplete([]);
        } catch (error) {
          handler.onError(error as Error);
        }
        return true;
      },
    } as unknown as Dispatcher;
    const outcome = requestWholeBody(dispatcher, { origin: 'http://127.0.0.1:1', path: '/', method: 'GET', headers: {} }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    // Everything above ran synchronously: a settled promise answers before a timer-free macrotask.
    const pending = new Promise((resolve) => setImmediate(() => resolve('still pending')));
    expect(await Promise.race([outcome, pending])).toBe(tooLong);
  });
});
