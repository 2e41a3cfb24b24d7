/**
 * The rate limits' one pass over a request's counters: in-process it is synchronous (no promise per
 * request), and a refused request leaves the counts as checking one limit after another would have:
 * what the checks after the refusing one took is given back.
 */
import { describe, expect, it } from 'vitest';
import type { LimitSettings } from '../../src/config/config-types.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Admission } from '../../src/plugins/admission.js';
import { RateLimits } from '../../src/plugins/rate-limits.js';
import { createInProcessState } from '../../src/state/in-process-state.js';

function limits(server: LimitSettings, keys: Record<string, LimitSettings | undefined>): RateLimits {
  return new RateLimits(server, new Map(Object.entries(keys)), { state: createInProcessState(), log: silentLogger });
}

function admitted(result: Admission | Promise<Admission>): Admission {
  if (result instanceof Promise) throw new Error('in-process limits answered with a promise');
  return result;
}

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('admitted');
}

describe('rate limits, one pass', () => {
  it('answers synchronously with in-process state, headers included', () => {
    const admission = admitted(limits({ requestsPerMinute: 10 }, { team: { tokensPerMinute: 100 } }).admit('team', false));
    expect(admission.headers).toMatchObject({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-remaining-requests': '9',
      'x-ratelimit-limit-tokens': '100',
      'x-ratelimit-remaining-tokens': '100',
    });
  });

  it('takes no request point for a request refused for its tokens', () => {
    const rateLimits = limits({ requestsPerMinute: 5 }, { spent: { tokensPerMinute: 10 }, other: undefined });
    admitted(rateLimits.admit('spent', false)).recordTokens(10);
    expect(refusal(() => rateLimits.admit('spent', false)).message).toContain('10 tokens per minute');
    // The server's window counted the first request and the other key's, not the refused one.
    expect(admitted(rateLimits.admit('other', false)).headers['x-ratelimit-remaining-requests']).toBe('3');
  });

  it('gives back the server’s stream slot when the key’s own slots are all held', () => {
    const rateLimits = limits({ concurrentStreams: 2 }, { single: { concurrentStreams: 1 }, other: undefined });
    const held = admitted(rateLimits.admit('single', true));
    expect(held.holdsSlots).toBe(true);
    expect(refusal(() => rateLimits.admit('single', true)).message).toContain('1 concurrent streams');
    const second = admitted(rateLimits.admit('other', true));
    expect(refusal(() => rateLimits.admit('other', true)).message).toContain('2 concurrent streams');
    second.release();
    second.release();
    held.release();
    expect(admitted(rateLimits.admit('single', true)).holdsSlots).toBe(true);
    expect(admitted(rateLimits.admit('other', false)).holdsSlots).toBe(false);
  });

  it('counts a refused request in the window that refused it, and tells the tighter limit', () => {
    const rateLimits = limits({ requestsPerMinute: 100 }, { tight: { requestsPerMinute: 1 } });
    expect(admitted(rateLimits.admit('tight', false)).headers).toMatchObject({
      'x-ratelimit-limit-requests': '1',
      'x-ratelimit-remaining-requests': '0',
    });
    const refused = refusal(() => rateLimits.admit('tight', false));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit-requests': '1', 'x-ratelimit-remaining-requests': '0' });
  });
});
