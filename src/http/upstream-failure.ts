/**
 * What kind of upstream failure an error is, for retries and fallbacks: an HTTP status, a connection that
 * failed before any response, or a timeout before the response. Anything else (bad input, a refused key,
 * a client that went away, a shutdown) is no upstream failure and is never retried.
 */
import { GatewayError } from '../core/gateway-error.js';

export type UpstreamFailure = { type: 'status'; status: number } | { type: 'connect' } | { type: 'timeout' };

export function classifyUpstreamFailure(error: unknown): UpstreamFailure | undefined {
  if (!GatewayError.isInstance(error)) return undefined;
  if (error.upstreamStatus !== undefined) return { type: 'status', status: error.upstreamStatus };
  // The codes errorFromTransportFailure gives: refused, reset or closed before the response; no headers in time.
  if (error.code === 'upstream_unavailable') return { type: 'connect' };
  if (error.code === 'upstream_timeout') return { type: 'timeout' };
  return undefined;
}

/** Connect errors, timeouts, 408, 429 and 5xx; every other 4xx keeps its meaning. */
export function isRetryable(failure: UpstreamFailure): boolean {
  if (failure.type !== 'status') return true;
  return failure.status === 408 || failure.status === 429 || failure.status >= 500;
}

/** The `reason` label of metrics and log lines: `http_503`, `connect`, `timeout`. */
export function failureReason(failure: UpstreamFailure): string {
  return failure.type === 'status' ? `http_${failure.status}` : failure.type;
}
