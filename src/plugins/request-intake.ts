/**
 * The one hook every request passes before its route (fastify's onRequest), with its steps in order:
 *
 * 1. its body's receive deadline starts (request-body-deadline.ts): first, so that a request a later
 *    step refuses without reading its body still gets its 408 if the client stalls;
 * 2. the reply names the request (`x-request-id`): set before any step or route can answer, so every
 *    reply carries it, errors and refusals included (a stream writes it in its own head);
 * 3. a request that arrives while the gateway shuts down is refused (shutdown-refusal.ts);
 * 4. a Content-Type fastify cannot parse is dropped (json-body-parser.ts), before fastify picks a parser.
 *
 * Client keys, when the config has any, are checked by the next hook (client-auth.ts). One hook rather
 * than one per concern: fastify runs each hook as a step of its own on every request.
 */
import type { FastifyInstance } from 'fastify';
import { dropUnparseableContentType } from './json-body-parser.js';
import type { BodyDeadlines } from './request-body-deadline.js';
import type { ShutdownRefusal } from './shutdown-refusal.js';

export type RequestIntake = { bodyDeadlines: BodyDeadlines; shutdownRefusal: ShutdownRefusal };

export function registerRequestIntake(app: FastifyInstance, { bodyDeadlines, shutdownRefusal }: RequestIntake): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    bodyDeadlines.start(request);
    void reply.header('x-request-id', request.id);
    // Refused: answered here, and a callback hook that sends does not call done.
    if (shutdownRefusal.refused(request, reply)) return;
    dropUnparseableContentType(request);
    done();
  });
}
