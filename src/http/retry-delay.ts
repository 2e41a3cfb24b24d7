/**
 * How long to wait before retrying: the upstream's own `retry-after-ms` or `retry-after` (seconds or an
 * HTTP-date) when it sent one, else jittered exponential backoff. Never longer than the configured cap:
 * an upstream asking for longer is not retried (the next fallback, or the client, gets its answer).
 */
import type { RetrySettings } from '../config/config-types.js';
import type { GatewayError } from '../core/gateway-error.js';

/** The upstream's requested wait in milliseconds, when it gave a readable one. */
export function upstreamRetryAfterMs(error: GatewayError, now: number): number | undefined {
  // `retry-after-ms` is OpenAI's and Azure's finer-grained header; it wins over `retry-after`.
  const milliseconds = error.retryAfterMs === undefined ? Number.NaN : Number(error.retryAfterMs);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const text = error.retryAfter?.trim();
  if (!text) return undefined;
  // https://www.rfc-editor.org/rfc/rfc9110#field.retry-after: delay-seconds / HTTP-date.
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * "Equal jitter" (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/): half the
 * doubled delay, plus a random half, so that concurrent requests spread out but never retry at once.
 * `retry` counts from 1.
 */
export function backoffDelayMs(retry: number, settings: RetrySettings, random: () => number): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** The wait before retry number `retry`, or undefined when the upstream asked for longer than the cap. */
export function retryDelayMs(
  error: GatewayError,
  retry: number,
  settings: RetrySettings,
  options: { now: number; random: () => number },
): number | undefined {
  const requested = upstreamRetryAfterMs(error, options.now);
  if (requested === undefined) return backoffDelayMs(retry, settings, options.random);
  return requested <= settings.maxDelayMs ? requested : undefined;
}
