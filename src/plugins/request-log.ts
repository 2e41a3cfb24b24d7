/**
 * One log line per request: request id, method, route, provider, model, lane, status, duration.
 * Never a key or a prompt (headers and bodies are not logged).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type RequestLogFields = {
  provider?: string;
  model?: string;
  toolCalling?: string;
  toolFormat?: string;
  stream?: boolean;
};

type RequestLogState = RequestLogFields & { startedAt: number; written: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    gatewayLog: RequestLogState | null;
  }
}

export function annotateRequest(request: FastifyRequest, fields: RequestLogFields): void {
  if (request.gatewayLog) Object.assign(request.gatewayLog, fields);
}

/** Writes the request's line once (streams call it themselves, since hijacked replies skip onResponse). */
export function logRequest(request: FastifyRequest, statusCode: number, outcome?: string): void {
  const state = request.gatewayLog;
  if (!state || state.written) return;
  state.written = true;
  const { startedAt, written: _written, ...fields } = state;
  const line: Record<string, unknown> = {
    reqId: request.id,
    method: request.method,
    url: request.url.split('?')[0],
    status: statusCode,
    durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
    ...fields,
  };
  if (outcome) line.outcome = outcome;
  // The root logger with the id as a field: no per-request child logger on the hot path.
  const logger = request.server.log;
  if (statusCode >= 500) logger.warn(line, 'request');
  else logger.info(line, 'request');
}

export function registerRequestLog(app: FastifyInstance): void {
  app.decorateRequest('gatewayLog', null);
  app.addHook('onRequest', async (request) => {
    request.gatewayLog = { startedAt: performance.now(), written: false };
  });
  app.addHook('onResponse', async (request, reply) => {
    logRequest(request, reply.statusCode);
  });
}
