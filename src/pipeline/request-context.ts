/**
 * What the gateway learns about one request on its way through, in one object: the edge's hooks fill it
 * and the routes read it, in this order:
 * 0. the body deadline (the request intake, while a body is still to come): `bodyDeadline`, dropped when it is in;
 * 1. client-auth (onRequest, when keys are configured): `access`, the key's policy;
 * 2. the rate limits (preHandler of the generating routes, when limits apply): `admission`;
 * 3. the budgets (preHandler, when a budget applies): `budget`;
 * 4. the route (routes/shared/run-generation.ts): `trace`, and `logFields` once the run has a model;
 * 5. the request log (onResponse, or the stream's end): writes the line once and ends the trace.
 * It is made where it is first needed (`requestContextOf`), so a request that none of these touch costs
 * no object, and no hook runs to make it.
 */
import type { IncomingMessage } from 'node:http';
import type { Budget } from '../config/config-types.js';
import type { Admission } from '../core/admission.js';
import type { Deadline } from '../core/deadline-sweep.js';
import type { RequestTrace } from '../core/request-trace.js';
import type { AccessPolicy } from './access-policy.js';

/** What the request log writes besides the HTTP facts: the route learns them as it runs. */
export type RequestLogFields = {
  provider?: string;
  model?: string;
  toolCalling?: string;
  toolFormat?: string;
  stream?: boolean;
};

/**
 * A key's budget and name, as the request carries them to the reply's end (with the headers a stream writes
 * in its head, and what was left at admission, which a whole reply's header lessens by its cost).
 */
export type BudgetHolder = { name: string; budget: Budget; headers?: Record<string, string>; remainingUsd?: number };

/** A class, so that every request's context has one shape. */
export class RequestContext {
  /** The receive deadline of a body still to come (src/plugins/request-body-deadline.ts). */
  bodyDeadline: Deadline<IncomingMessage> | null = null;
  /** The client key's policy; null when the gateway has no keys. */
  access: AccessPolicy | null = null;
  /** The request's rate-limit admission; null when no limit applies. */
  admission: Admission | null = null;
  /** The budget this request's cost counts against; null without one. */
  budget: BudgetHolder | null = null;
  /** The generation's span, when traces are on. */
  trace: RequestTrace | null = null;
  /** Kept as given (not copied) when it is the first annotation. */
  logFields: RequestLogFields | null = null;
  /** Whether the log line is written: a stream writes it at its end, before fastify's onResponse. */
  logged = false;
}

/** The request's context, made on first use (fastify gives each request `gatewayContext: null`). */
export function requestContextOf(request: { gatewayContext: RequestContext | null }): RequestContext {
  return (request.gatewayContext ??= new RequestContext());
}
