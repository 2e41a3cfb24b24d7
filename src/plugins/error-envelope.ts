/**
 * One error envelope per API: every error leaving a route (validation, auth, upstream, not found,
 * malformed JSON) is rendered in OpenAI's `{"error":{…}}` shape, or Anthropic's for routes whose
 * config says `errorEnvelope: 'anthropic'`, with an honest status.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, gatewayError, toGatewayError, type GatewayErrorType } from '../core/gateway-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorEnvelope?: ErrorEnvelope;
  }
}

const anthropicTypes: Record<GatewayErrorType, string> = {
  invalid_request_error: 'invalid_request_error',
  authentication_error: 'authentication_error',
  permission_error: 'permission_error',
  not_found_error: 'not_found_error',
  rate_limit_error: 'rate_limit_error',
  upstream_error: 'api_error',
  timeout_error: 'api_error',
  server_error: 'api_error',
};

export function renderErrorBody(error: GatewayError, envelope: ErrorEnvelope): Record<string, unknown> {
  if (envelope === 'anthropic') {
    // An upstream 529/overloaded keeps its meaning, so Anthropic clients back off as they should.
    const overloaded = error.code === 'overloaded' || error.code === 'overloaded_error';
    const type = overloaded ? 'overloaded_error' : error.status === 404 ? 'not_found_error' : anthropicTypes[error.type];
    return { type: 'error', error: { type, message: error.message } };
  }
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) keep their 4xx status. */
function fromFastifyError(error: FastifyError): GatewayError {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? `Malformed JSON body: ${error.message}` : error.message;
    return gatewayError('request_rejected', { status, message, code: error.code ?? null });
  }
  return toGatewayError(error);
}

export type ErrorEnvelope = 'openai' | 'anthropic';

/** `/v1/messages…` and `/{provider}/v1/messages…`: the Messages API, whose clients read Anthropic's envelope. */
const messagesPath = /^(?:\/[^/?#]+)?\/v1\/messages(?:[/?#]|$)/;

/** The envelope for a request that matched no route (or never reached routing), judged by its path. */
export function envelopeForUrl(url: string): ErrorEnvelope {
  return messagesPath.test(url) ? 'anthropic' : 'openai';
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  if (error.retryAfter) void reply.header('retry-after', error.retryAfter);
  if (error.headers) void reply.headers(error.headers);
  const envelope = request.routeOptions.config?.errorEnvelope ?? envelopeForUrl(request.url);
  return reply.status(error.status).send(renderErrorBody(error, envelope));
}

/**
 * Fastify's `frameworkErrors` option: a URL it cannot decode (`/%zz`, FST_ERR_BAD_URL) or a path
 * parameter over its length limit, which fastify would answer in its own `{"error","statusCode"}` shape.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const rejected = gatewayError('request_rejected', { status: error.statusCode ?? 400, code: error.code, message: error.message });
  return reply.status(rejected.status).send(renderErrorBody(rejected, envelopeForUrl(request.url)));
}

export function registerErrorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const gatewayError = GatewayError.isInstance(error) ? error : fromFastifyError(error);
    if (gatewayError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, gatewayError);
  });
  app.setNotFoundHandler((request, reply) => {
    const error = gatewayError('unknown_route', { message: `Unknown route: ${request.method} ${request.url.split('?')[0]}` });
    return reply.status(404).send(renderErrorBody(error, envelopeForUrl(request.url)));
  });
}
