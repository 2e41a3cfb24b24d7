/** The wait before a retry: the upstream's retry-after-ms / retry-after (seconds or HTTP-date), else jittered doubling, never past the cap. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { backoffDelayMs, retryDelayMs, upstreamRetryAfterMs } from '../../src/http/retry-delay.js';

const settings = { count: 5, initialDelayMs: 100, maxDelayMs: 1_000 };
const now = Date.parse('2026-12-01T12:00:00Z');

function upstreamError(headers: { retryAfter?: string; retryAfterMs?: string }): GatewayError {
  return new GatewayError({ status: 429, type: 'rate_limit_error', message: 'slow down', upstreamStatus: 429, ...headers });
}

describe('upstreamRetryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after as seconds or as an HTTP-date', () => {
    expect(upstreamRetryAfterMs(upstreamError({ retryAfterMs: '250', retryAfter: '9' }), now)).toBe(250);
    expect(upstreamRetryAfterMs(upstreamError({ retryAfterMs: '12.5' }), now)).toBe(12.5);
    expect(upstreamRetryAfterMs(upstreamError({ retryAfter: '3' }), now)).toBe(3_000);
    expect(upstreamRetryAfterMs(upstreamError({ retryAfter: 'Tue, 01 Dec 2026 12:00:02 GMT' }), now)).toBe(2_000);
    // A date already past means "now", not a negative wait.
    expect(upstreamRetryAfterMs(upstreamError({ retryAfter: 'Tue, 01 Dec 2026 11:00:00 GMT' }), now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(upstreamRetryAfterMs(upstreamError({}), now)).toBeUndefined();
    expect(upstreamRetryAfterMs(upstreamError({ retryAfterMs: 'soon', retryAfter: 'later' }), now)).toBeUndefined();
    expect(upstreamRetryAfterMs(upstreamError({ retryAfterMs: '-5', retryAfter: '1' }), now)).toBe(1_000);
  });
});

describe('retryDelayMs', () => {
  it('honours an upstream wait within the cap, and declines one beyond it', () => {
    const options = { now, random: () => 0.5 };
    expect(retryDelayMs(upstreamError({ retryAfter: '1' }), 1, settings, options)).toBe(1_000);
    expect(retryDelayMs(upstreamError({ retryAfter: '2' }), 1, settings, options)).toBeUndefined();
    expect(retryDelayMs(upstreamError({}), 1, settings, options)).toBe(75);
  });
});

describe('backoffDelayMs', () => {
  it('doubles per retry between half and all of its ceiling, and never exceeds maxDelayMs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, random) => {
        const ceiling = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (retry - 1));
        const delay = backoffDelayMs(retry, settings, () => random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(delay).toBeLessThanOrEqual(settings.maxDelayMs);
      }),
    );
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, settings, () => 0))).toEqual([50, 100, 200, 400, 500]);
  });
});
