/**
 * The one error type that crosses layers. Routes render it in their API's envelope;
 * `status` is the honest HTTP status, `type`/`code`/`param` follow OpenAI's error object.
 */

export type GatewayErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'timeout_error'
  | 'server_error';

export type GatewayErrorOptions = {
  status: number;
  type: GatewayErrorType;
  message: string;
  code?: string | null;
  param?: string | null;
  /** Seconds, from an upstream `retry-after`, passed on to the client. */
  retryAfter?: string;
  /** An upstream's `retry-after-ms` (milliseconds), read by the gateway's own retries only. */
  retryAfterMs?: string;
  /** The upstream's HTTP status, when the error is one (retries and fallbacks read it; `status` is what the client sees). */
  upstreamStatus?: number;
  /** Further headers the error reply carries (a 429's `x-ratelimit-*`). */
  headers?: Record<string, string>;
  /** The upstream's own error body when there was one (never shown if it could hold secrets). */
  upstreamBody?: unknown;
  cause?: unknown;
};

const marker = Symbol.for('interlingua.gateway-error');

export class GatewayError extends Error {
  readonly status: number;
  readonly type: GatewayErrorType;
  readonly code: string | null;
  readonly param: string | null;
  readonly retryAfter: string | undefined;
  readonly retryAfterMs: string | undefined;
  readonly upstreamStatus: number | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly upstreamBody: unknown;
  readonly [marker] = true;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = options.status;
    this.type = options.type;
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.retryAfter = options.retryAfter;
    this.retryAfterMs = options.retryAfterMs;
    this.upstreamStatus = options.upstreamStatus;
    this.headers = options.headers;
    this.upstreamBody = options.upstreamBody;
  }

  /** Survives duplicated module copies, unlike `instanceof`. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): GatewayError {
  return new GatewayError({ status: 400, type: 'invalid_request_error', message, param, code });
}

export function notFound(message: string, code: string | null = null, param: string | null = null): GatewayError {
  return new GatewayError({ status: 404, type: 'invalid_request_error', message, code, param });
}

export function upstreamFailure(message: string, cause?: unknown): GatewayError {
  return new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_unavailable', message, cause });
}

export function upstreamTimeout(message: string, cause?: unknown): GatewayError {
  return new GatewayError({ status: 504, type: 'timeout_error', code: 'upstream_timeout', message, cause });
}

/** What a request gets, or an aborted generation ends with, while the gateway shuts down. */
export function shuttingDown(): GatewayError {
  return new GatewayError({ status: 503, type: 'server_error', code: 'server_shutting_down', message: 'The gateway is shutting down.' });
}

/** Wraps anything thrown into a GatewayError without losing an existing one. */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError({ status: 500, type: 'server_error', message: `Internal error: ${message}`, cause: error });
}
