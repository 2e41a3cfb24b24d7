/** RequestCancellation: the per-request emitter that undici accepts as a signal. */
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';

describe('RequestCancellation', () => {
  it('records the first reason only and emits abort once', () => {
    const cancellation = new RequestCancellation();
    let emitted = 0;
    cancellation.on('abort', () => emitted++);
    const first = new Error('client closed the connection');
    cancellation.abort(first);
    cancellation.abort(new Error('later'));
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(first);
    expect(emitted).toBe(1);
  });

  it('aborts an undici request in flight when given as its signal, and leaves no listener behind', async () => {
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const agent = new Agent();
    try {
      const cancellation = new RequestCancellation();
      const arrived = server.nextRequest();
      const response = await agent.request({ origin: server.url, path: '/', method: 'GET', signal: cancellation });
      const recorded = await arrived;
      const reading = response.body.text().catch((error: unknown) => error);
      cancellation.abort(new Error('client closed the connection'));
      expect(await reading).toBeInstanceOf(Error);
      while (!recorded.aborted) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(recorded.aborted).toBe(true);
      expect(cancellation.listenerCount('abort')).toBe(0);
    } finally {
      await agent.destroy();
      await server.close();
    }
  });

  it('leaves no listener behind on an undici request that completed', async () => {
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    });
    const agent = new Agent();
    try {
      const cancellation = new RequestCancellation();
      const response = await agent.request({ origin: server.url, path: '/', method: 'GET', signal: cancellation });
      expect(await response.body.text()).toBe('done');
      // undici removes its listener when the body closes, a tick after the last byte was read.
      await new Promise((resolve) => setImmediate(resolve));
      expect(cancellation.listenerCount('abort')).toBe(0);
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
