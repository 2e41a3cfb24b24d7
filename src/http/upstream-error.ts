/**
 * Turns upstream failures into GatewayErrors with honest statuses: an upstream's 4xx, 429 and 5xx are
 * passed on with their status (DESIGN.md: "429/5xx from upstream passed on"), 4xx and 429 with the
 * upstream's message, 5xx with a message naming the provider; connection failures are 502, timeouts 504.
 */
import { GatewayError, gatewayError, type GatewayErrorType } from '../core/gateway-error.js';
import type { Cancellation } from '../core/cancellation.js';
import { contextOverflowCode } from '../core/context-overflow-code.js';
import { isContextOverflow } from './context-overflow.js';

/** Reads the human message out of OpenAI, Anthropic or Ollama error bodies. */
export function readUpstreamErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  if (typeof record.message === 'string') return record.message;
  if (typeof record.detail === 'string') return record.detail;
  return undefined;
}

function readUpstreamErrorCode(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const error = (body as Record<string, unknown>).error;
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    // OpenAI puts a code in error.code; Anthropic only has error.type (e.g. overloaded_error).
    if (typeof record.code === 'string') return record.code;
    if (typeof record.type === 'string') return record.type;
  }
  return null;
}

function typeForStatus(status: number): GatewayErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status < 500) return 'invalid_request_error';
  return 'upstream_error';
}

/** Builds the client-facing error for an upstream HTTP error status. */
export function errorFromUpstreamStatus(options: {
  status: number;
  body: unknown;
  provider: string;
  retryAfter?: string | null;
  /** `retry-after-ms` (OpenAI and Azure send it): for the gateway's retries, not passed on. */
  retryAfterMs?: string | null;
}): GatewayError {
  const { status, body, provider } = options;
  const upstreamMessage = readUpstreamErrorMessage(body) ?? `HTTP ${status}`;
  const passThrough = status >= 400 && status < 500;
  const upstreamCode = readUpstreamErrorCode(body);
  // A prompt that does not fit gets OpenAI's code whatever the server called it, so clients of every API can tell.
  const code = isContextOverflow(status, upstreamMessage, upstreamCode) ? contextOverflowCode : upstreamCode;
  // A 503 or Anthropic's 529 says "busy, come back", a 500 "it broke there": a client reads that from the
  // status, so it is kept. Only a status that is no error at all (a stray 1xx-3xx) becomes a 502.
  const errorStatus = status >= 400 && status < 600;
  return gatewayError('upstream_http_error', {
    status: errorStatus ? status : 502,
    type: typeForStatus(status),
    code: code ?? (passThrough ? null : `upstream_http_${status}`),
    message: passThrough ? upstreamMessage : `Upstream provider '${provider}' failed with HTTP ${status}: ${upstreamMessage}`,
    retryAfter: options.retryAfter ?? undefined,
    retryAfterMs: options.retryAfterMs ?? undefined,
    upstreamStatus: status,
    upstreamBody: body,
  });
}

/** A 2xx body (or one NDJSON line of it) that JSON.parse refused: the upstream broke its own protocol. */
export function errorFromUnreadableJson(provider: string, error: unknown): GatewayError {
  return gatewayError('upstream_bad_response', {
    message: `Upstream provider '${provider}' sent a reply that is not JSON: ${(error as Error).message}`,
    cause: error,
  });
}

const timeoutCodes: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('UND_ERR') || code.startsWith('E'))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether an error (or one of its causes) is an upstream timeout. */
export function isTimeoutError(error: unknown): boolean {
  const code = errorCode(error);
  if (code && timeoutCodes.has(code)) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const name = (current as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'APIConnectionTimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a request cancelled by its caller failed with: the client went away (logged as 499, which nobody
 * reads but the log), or the cancellation carried its own reason (a timeout, a shutdown's GatewayError).
 */
export function errorFromAbort(reason: unknown): GatewayError {
  if (GatewayError.isInstance(reason)) return reason;
  if (isTimeoutError(reason))
    return gatewayError('upstream_timeout', { message: 'The request timed out before the upstream finished', cause: reason });
  return gatewayError('client_closed_request', { message: 'The client closed the request before the upstream finished', cause: reason });
}

/**
 * Maps a transport failure (no HTTP status) to 502, or 504 for timeouts. Keeps GatewayErrors. When the
 * caller's cancellation fired, whatever undici threw is its consequence, not an upstream failure.
 */
export function errorFromTransportFailure(error: unknown, provider: string, cancellation?: Cancellation): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (cancellation?.aborted) return errorFromAbort(cancellation.reason);
  const detail = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
  if (isTimeoutError(error))
    return gatewayError('upstream_timeout', { message: `Upstream provider '${provider}' timed out (${detail})`, cause: error });
  return gatewayError('upstream_unavailable', { message: `Upstream provider '${provider}' is unreachable (${detail})`, cause: error });
}
