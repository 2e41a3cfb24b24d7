/**
 * One error envelope per API: every error leaving a route (validation, auth, upstream, not found,
 * malformed JSON) is rendered by the renderer its route family owns, with an honest status. This
 * plugin only dispatches: a matched route names its renderer in its config (`renderError`); a request
 * no route matched (or that never reached routing) gets the renderer of the route family that claimed
 * its path, else the default one.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, gatewayError, toGatewayError } from '../core/gateway-error.js';
import { drainRefusedBody } from './drain-refused-body.js';
import { publicErrorCode } from './public-error-code.js';

/** An API's error body for a GatewayError. */
export type ErrorRenderer = (error: GatewayError) => object;

declare module 'fastify' {
  interface FastifyContextConfig {
    renderError?: ErrorRenderer;
  }
  interface FastifyInstance {
    errorEnvelopes: ErrorEnvelopes;
  }
}

/** Which renderer answers which path: built in app.ts, claimed by route families as they register. */
export class ErrorEnvelopes {
  private readonly claims: { path: RegExp; render: ErrorRenderer }[] = [];

  constructor(private readonly fallback: ErrorRenderer) {}

  /** The route family that serves `path` renders the errors of requests there that no route matched. */
  claim(path: RegExp, render: ErrorRenderer): void {
    this.claims.push({ path, render });
  }

  forUrl(url: string): ErrorRenderer {
    return this.claims.find((claim) => claim.path.test(url))?.render ?? this.fallback;
  }

  forRequest(request: FastifyRequest): ErrorRenderer {
    return request.routeOptions.config?.renderError ?? this.forUrl(request.url);
  }
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) keep their 4xx status, under a public code. */
function fromFastifyError(error: FastifyError): GatewayError {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? `Malformed JSON body: ${error.message}`
        : error.message;
    return gatewayError('request_rejected', { status, message, code: publicErrorCode(error.code, status) });
  }
  return toGatewayError(error);
}

/** The upstream requests made for a request (run-generation.ts counts them); a refusal made before any says 0. */
const attemptsHeader = 'x-interlingua-attempts';

/** Says that no upstream was asked, unless the reply already counts its attempts (every reply has x-request-id already: app.ts). */
function markNoAttempts(reply: FastifyReply): FastifyReply {
  return reply.hasHeader(attemptsHeader) ? reply : reply.header(attemptsHeader, '0');
}

/**
 * A refusal the gateway made itself, before any upstream was asked: a client error that is not an upstream's
 * passed on (no key, a body it cannot parse or that is too large, a schema refusal, a model the key may
 * not use). A generation that failed upstream counts its own attempts (routes/shared/run-generation.ts).
 */
function refusedBeforeUpstream(error: GatewayError): boolean {
  return error.status < 500 && error.upstreamStatus === undefined;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  if (error.retryAfter) void reply.header('retry-after', error.retryAfter);
  if (error.headers) void reply.headers(error.headers);
  if (refusedBeforeUpstream(error)) markNoAttempts(reply);
  return reply.status(error.status).send(request.server.errorEnvelopes.forRequest(request)(error));
}

/**
 * Fastify's `frameworkErrors` option: a URL it cannot decode (`/%zz`, FST_ERR_BAD_URL) or a path
 * parameter over its length limit, which fastify would answer in its own `{"error","statusCode"}` shape.
 */
export function sendFrameworkError(
  envelopes: ErrorEnvelopes,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const status = error.statusCode ?? 400;
  const rejected = gatewayError('request_rejected', { status, code: publicErrorCode(error.code, status), message: error.message });
  // Some come before any hook ran (a URL that cannot be decoded): the request intake never set the id.
  return markNoAttempts(reply).header('x-request-id', request.id).status(rejected.status).send(envelopes.forUrl(request.url)(rejected));
}

export function registerErrorEnvelope(app: FastifyInstance, envelopes: ErrorEnvelopes): void {
  app.decorate('errorEnvelopes', envelopes);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = GatewayError.isInstance(error) ? error : fromFastifyError(error);
    // Refused before the whole body arrived: the client must read this answer, not a reset.
    if (failure.status < 500) drainRefusedBody(request, reply);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, failure);
  });
  app.setNotFoundHandler((request, reply) => {
    const error = gatewayError('unknown_route', { message: `Unknown route: ${request.method} ${request.url.split('?')[0]}` });
    return markNoAttempts(reply).status(404).send(envelopes.forUrl(request.url)(error));
  });
}
