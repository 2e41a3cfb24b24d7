/** The one request decoration: the RequestContext (src/pipeline/request-context.ts) the hooks and routes share. */
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../pipeline/request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the gateway has learnt about the request; null until a hook or the route needs it. */
    gatewayContext: RequestContext | null;
  }
}

export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('gatewayContext', null);
}
