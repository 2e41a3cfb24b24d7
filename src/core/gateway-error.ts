/**
 * The one error type that crosses layers. Routes render it in their API's envelope;
 * `status` is the honest HTTP status, `type`/`code`/`param` follow OpenAI's error object.
 */
import { errorCatalogue, type ErrorCatalogueEntry, type ErrorName, type GatewayErrorType } from './error-catalogue.js';

export type { GatewayErrorType } from './error-catalogue.js';

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

type ErrorDetails = Omit<GatewayErrorOptions, 'status' | 'type' | 'code'>;
type EntryOf<Name extends ErrorName> = (typeof errorCatalogue)[Name];
/** A message unless the entry has one; status, type and code only where the entry says they are passed on. */
export type GatewayErrorDetails<Name extends ErrorName> = Omit<ErrorDetails, 'message'> &
  (EntryOf<Name> extends { message: string } ? { message?: string } : { message: string }) &
  (EntryOf<Name> extends { passedOn: true } ? { status?: number; type?: GatewayErrorType; code?: string | null } : unknown);

/** Builds the error `name` from the catalogue (src/core/error-catalogue.ts). */
export function gatewayError<Name extends ErrorName>(name: Name, details: GatewayErrorDetails<Name>): GatewayError {
  const entry: ErrorCatalogueEntry = errorCatalogue[name];
  const given = details as ErrorDetails & { message?: string; status?: number; type?: GatewayErrorType; code?: string | null };
  return new GatewayError({
    ...given,
    status: given.status ?? entry.status,
    type: given.type ?? entry.type,
    code: given.code !== undefined ? given.code : entry.code !== undefined ? entry.code : name,
    message: given.message ?? entry.message ?? name,
  });
}

/** The common case: a field of the request is wrong (no code, as OpenAI sends none). */
export function invalidRequest(message: string, param: string | null = null): GatewayError {
  return gatewayError('invalid_request', { message, param });
}

/** Wraps anything thrown into a GatewayError without losing an existing one. */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return gatewayError('internal_error', { message: `Internal error: ${message}`, cause: error });
}
