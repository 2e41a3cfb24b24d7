/**
 * The least any gateway that translates what it forwards can do, on any framework: node:http and undici
 * as the bare proxy uses them, plus the JSON work translation cannot skip (the request's body parsed, a
 * new upstream body written, the reply parsed and rebuilt), and nothing else: no framework, no log line,
 * no validation. The fastify floor is this plus the design's stack (fastify's routing, request and reply
 * objects and serializer; pino's request line).
 *
 * Measured beside the bare proxy (`--lanes`), it says what a goal against the bare proxy asks of
 * translation itself: a goal below this row cannot be met by a gateway that reads the request at all.
 */
import http from 'node:http';
import { Agent } from 'undici';
import { rebuiltCompletion, sendUpstream, type ChatBody, type UpstreamCompletion } from './floor-translation.js';
import { listenOnLoopback, type RunningServer } from './running-server.js';

export function startTranslatingFloor(upstreamUrl: string, port = 0): Promise<RunningServer> {
  const dispatcher = new Agent({ keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 });
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
      const response = await sendUpstream(dispatcher, upstreamUrl, body);
      if (body.stream === true) {
        // A stream's frames pass through as they come (the probe asks for one; the lanes measure whole replies).
        outgoing.writeHead(response.statusCode, { 'content-type': 'text/event-stream' });
        for await (const chunk of response.body) outgoing.write(chunk as Buffer);
        outgoing.end();
        return;
      }
      const completion = rebuiltCompletion(JSON.parse(await response.body.text()) as UpstreamCompletion, body.model);
      const text = JSON.stringify(completion);
      outgoing.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      outgoing.end(text);
    } catch {
      outgoing.destroy();
    }
  });
  return listenOnLoopback(server, port, () => dispatcher.close());
}
