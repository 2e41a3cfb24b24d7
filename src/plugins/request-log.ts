/**
 * One log line per request: request id, method, route, provider, model, lane, status, duration.
 * Never a key or a prompt (headers and bodies are not logged).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type RequestLogFields = {
  provider?: string;
  model?: string;
  toolCalling?: string;
  toolFormat?: string;
  stream?: boolean;
};

type RequestLogState = RequestLogFields & { written?: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    gatewayLog: RequestLogState | null;
  }
}

export function annotateRequest(request: FastifyRequest, fields: RequestLogFields): void {
  request.gatewayLog = request.gatewayLog ? Object.assign(request.gatewayLog, fields) : { ...fields };
}

/**
 * Writes the request's line once (streams call it themselves, since hijacked replies skip onResponse).
 * The duration is fastify's own clock on the reply, started when the request arrived.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply, statusCode: number, outcome?: string): void {
  const state = request.gatewayLog;
  if (state?.written) return;
  const line: Record<string, unknown> = {
    reqId: request.id,
    method: request.method,
    url: request.url.split('?')[0],
    status: statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
  };
  if (state) {
    Object.assign(line, state);
    state.written = true;
  } else {
    request.gatewayLog = { written: true };
  }
  if (outcome) line.outcome = outcome;
  // The root logger with the id as a field: no per-request child logger on the hot path.
  const logger = request.server.log;
  if (statusCode >= 500) logger.warn(line, 'request');
  else logger.info(line, 'request');
}

export function registerRequestLog(app: FastifyInstance): void {
  app.decorateRequest('gatewayLog', null);
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, reply.statusCode);
    done();
  });
}
