/**
 * Requests that arrive while the gateway shuts down (on a kept-alive connection) get a 503 in the
 * API's envelope, instead of fastify's own `{"error":"Service Unavailable","statusCode":503}`
 * (`return503OnClosing`, which app.ts turns off for this).
 */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../core/gateway-error.js';
import { sendError } from './error-envelope.js';

export function registerShutdownRefusal(app: FastifyInstance): void {
  const state = { closing: false };
  // Registered before the live-streams drain, whose preClose hook waits: hooks run in order.
  app.addHook('preClose', async () => {
    state.closing = true;
  });
  // A callback hook, not an async one: it runs on every request and almost always only returns.
  app.addHook('onRequest', (request, reply, done) => {
    if (!state.closing) return done();
    sendError(request, reply.header('connection', 'close'), gatewayError('server_shutting_down', {}));
  });
}
