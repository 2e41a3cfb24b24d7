/**
 * The physical limit: the smallest useful pass-through proxy (http server → undici → pipe), nothing
 * else. The body is read whole (as any gateway must) and the answer goes through `undici.stream`,
 * which writes straight into the response: measured twice as cheap per request as
 * `request` + `pipeline` with a streamed body, and the limit should be the best a proxy can do.
 */
import http from 'node:http';
import { Agent, stream } from 'undici';
import { listenOnLoopback, type RunningServer } from './running-server.js';

export function startBareProxy(upstreamUrl: string, port = 0): Promise<RunningServer> {
  const dispatcher = new Agent({ keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 });
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const options = { dispatcher, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) };
      await stream(`${upstreamUrl}${incoming.url}`, options, ({ statusCode, headers }) =>
        outgoing.writeHead(statusCode, { 'content-type': String(headers['content-type']) }),
      );
    } catch {
      outgoing.destroy();
    }
  });
  return listenOnLoopback(server, port, () => dispatcher.close());
}
