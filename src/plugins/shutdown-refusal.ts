/**
 * Requests that arrive while the gateway shuts down (on a kept-alive connection) get a 503 in the
 * API's envelope, instead of fastify's own `{"error":"Service Unavailable","statusCode":503}`
 * (`return503OnClosing`, which app.ts turns off for this). The request intake asks it about every request
 * (src/plugins/request-intake.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from '../core/gateway-error.js';
import { sendError } from './error-envelope.js';

export class ShutdownRefusal {
  private closing = false;

  constructor(app: FastifyInstance) {
    // Registered before the live-streams drain, whose preClose hook waits: hooks run in order.
    app.addHook('preClose', async () => {
      this.closing = true;
    });
  }

  /** Whether the request was refused (answered here); almost always it only returns false. */
  refused(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!this.closing) return false;
    sendError(request, reply.header('connection', 'close'), gatewayError('server_shutting_down', {}));
    return true;
  }
}
