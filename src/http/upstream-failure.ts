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

/** Upstream errors that say nothing about the server's health: the reply was only larger than the gateway reads, or a script chose it. */
const notServerFailures: ReadonlySet<string> = new Set(['upstream_response_too_large', 'scripted_error']);

/**
 * The same, for a reply read whole (a non-streaming request): until it is in hand nothing has reached
 * the client, so an upstream that answered 2xx and then failed (an error body or event, a body cut or
 * unreadable) failed like a 502 and may be retried or handed to the next target, as the docs promise
 * ("while its reply is read whole"). In a stream the same errors come after the first byte: never retried.
 */
export function classifyWholeReplyFailure(error: unknown): UpstreamFailure | undefined {
  const failure = classifyUpstreamFailure(error);
  if (failure || !GatewayError.isInstance(error)) return failure;
  if (error.type !== 'upstream_error' || error.status < 500 || notServerFailures.has(error.code ?? '')) return undefined;
  return { type: 'status', status: error.status };
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
