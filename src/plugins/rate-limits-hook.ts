/** Runs the rate limits before every generating route: the request's admission, its headers, its slots given back. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPromise, type MaybePromise } from '../state/limit-counters.js';
import { noLimits, type Admission } from './admission.js';
import type { RateLimits } from './rate-limits.js';
import { requestContextOf } from '../pipeline/request-context.js';

/** The routes that generate (and so count): Chat Completions, Responses, Messages, embeddings, on /v1 and /{provider}/v1. */
const limitedRoute = /\/v1\/(?:chat\/completions|responses|messages|embeddings)$/;

function holdAdmission(request: FastifyRequest, reply: FastifyReply, admission: Admission): void {
  if (admission === noLimits) return;
  requestContextOf(request).admission = admission;
  void reply.headers(admission.headers);
  // Only a stream holds slots: other requests add no listener.
  if (admission.holdsSlots) reply.raw.once('close', () => admission.release());
}

/** Whether a route counts against the limits: a POST to one of the generating routes. */
export function isLimitedRoute(method: string | readonly string[], url: string): boolean {
  const posts = typeof method === 'string' ? method === 'POST' : method.includes('POST');
  return posts && limitedRoute.test(url);
}

export function registerRateLimits(app: FastifyInstance, limits: RateLimits): void {
  app.decorate('rateLimits', limits);
  // A callback hook, not an async one: in-process limits answer synchronously, and then no promise is made.
  const admitRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    // A route that also answers other methods is limited for its POSTs only.
    if (request.method !== 'POST') return done();
    const body = request.body as { stream?: unknown } | null;
    let admission: MaybePromise<Admission>;
    try {
      admission = limits.admit(request.gatewayContext?.access?.name ?? null, body?.stream === true);
    } catch (error) {
      return done(error as Error);
    }
    if (!isPromise(admission)) {
      holdAdmission(request, reply, admission);
      return done();
    }
    admission.then((admitted) => {
      holdAdmission(request, reply, admitted);
      done();
    }, done);
  };
  // Chosen once per route as it is registered, not per request: other routes run no limits hook at all
  // (and no request reads fastify's routeOptions getter, which builds an object on every read); and
  // with no limit configured, no route does.
  if (!limits.active) return;
  app.addHook('onRoute', (route) => {
    if (!isLimitedRoute(route.method, route.url)) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? admitRequest : [admitRequest, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits, for generations that are no HTTP request of their own (a WebSocket turn). */
    rateLimits?: RateLimits;
  }
}
