/**
 * The floor of a gateway built on this stack: the least any gateway on fastify, undici and pino does for
 * a non-streaming chat request, and nothing of Interlingua's own. It parses the body (fastify's JSON
 * parser), writes a new upstream body with the model swapped (JSON.stringify), sends it with undici,
 * parses the reply and answers a `chat.completion` rebuilt from it (a new object, fastify's
 * serializer), and writes one request line through pino into the gateway's block-buffered log
 * destination after the reply. No validation, model resolution, pipeline, metrics or headers of its own.
 *
 * Measured beside the bare proxy (`--lanes`), it says how much of the gateway's cost over the bare proxy
 * is the stack itself (a framework, JSON in and out, a log line) and so cannot be won back by the
 * gateway's own code: the goals are read against both.
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { Agent } from 'undici';
import { LogDestination } from '../src/log-destination.js';
import { rebuiltCompletion, sendUpstream, type ChatBody, type UpstreamCompletion } from './floor-translation.js';
import type { RunningServer } from './running-server.js';

export async function startFastifyFloor(upstreamUrl: string, port = 0): Promise<RunningServer> {
  const dispatcher = new Agent({ keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 });
  // A log file of its own, as the gateway's (not /dev/null): the write(2) of each block is part of the cost.
  const logPath = path.join(os.tmpdir(), `interlingua-fastify-floor-${process.pid}.log`);
  const logFd = openSync(logPath, 'w');
  const destination = new LogDestination({ fd: logFd });
  const logger = pino({ level: 'info' }, destination);
  // Long keep-alive, as every bench server (running-server.ts): idle sockets outlive the other contenders' windows.
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    keepAliveTimeout: 120_000,
    forceCloseConnections: true,
  });
  app.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as ChatBody;
    const response = await sendUpstream(dispatcher, upstreamUrl, body);
    // A stream's frames pass through as they come (the probe asks for one; the lanes measure whole replies).
    if (body.stream === true) return reply.type('text/event-stream').send(response.body);
    return rebuiltCompletion(JSON.parse(await response.body.text()) as UpstreamCompletion, body.model);
  });
  app.addHook('onResponse', (request, reply, done) => {
    logger.info(
      { reqId: request.id, method: request.method, url: request.url, status: reply.statusCode, durationMs: reply.elapsedTime },
      'request',
    );
    done();
  });
  await app.listen({ host: '127.0.0.1', port });
  const actualPort = (app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    async close() {
      await app.close();
      await dispatcher.close();
      destination.flushSync();
      closeSync(logFd);
      rmSync(logPath, { force: true });
    },
  };
}
