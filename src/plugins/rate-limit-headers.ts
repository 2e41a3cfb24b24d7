/** The `x-ratelimit-*` headers of a limited reply, and the 429 a refused request gets. */
import { gatewayError, type GatewayError } from '../core/gateway-error.js';

/** OpenAI's reset format: `20ms`, `12s`, `6m0s`. */
export function formatReset(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.ceil(milliseconds))}ms`;
  const seconds = Math.ceil(milliseconds / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

/** One unit's tightest window over the scopes; `limit` is -1 until a window was read. */
type Tightest = { limit: number; remaining: number; resetMs: number };

/**
 * Notes each window as it is read, and writes the six headers once at the end (not per scope and unit).
 * The tightest window of each unit (the tighter of the server's and the key's limits) is kept in one
 * object per unit, updated in place: a request allocates nothing per window.
 */
export class HeaderTally {
  readonly requests: Tightest = { limit: -1, remaining: 0, resetMs: 0 };
  readonly tokens: Tightest = { limit: -1, remaining: 0, resetMs: 0 };

  note(unit: Tightest, limit: number, remaining: number, resetMs: number): void {
    if (unit.limit !== -1 && remaining >= unit.remaining) return;
    unit.limit = limit;
    unit.remaining = remaining;
    unit.resetMs = resetMs;
  }

  headers(): Record<string, string> {
    const headers: Record<string, string> = {};
    const { requests, tokens } = this;
    if (requests.limit !== -1) {
      headers['x-ratelimit-limit-requests'] = String(requests.limit);
      headers['x-ratelimit-remaining-requests'] = String(requests.remaining);
      headers['x-ratelimit-reset-requests'] = formatReset(requests.resetMs);
    }
    if (tokens.limit !== -1) {
      headers['x-ratelimit-limit-tokens'] = String(tokens.limit);
      headers['x-ratelimit-remaining-tokens'] = String(tokens.remaining);
      headers['x-ratelimit-reset-tokens'] = formatReset(tokens.resetMs);
    }
    return headers;
  }
}

/** The 429 of a refused request, with the headers of every window read before the refusal. */
export function rateLimitExceeded(what: string, label: string, milliseconds: number, tally: HeaderTally): GatewayError {
  const seconds = Math.max(1, Math.ceil(milliseconds / 1000));
  // Refused before any upstream was asked.
  return gatewayError('rate_limit_exceeded', {
    message: `Rate limit reached for ${label}: ${what}. Try again in ${seconds}s.`,
    retryAfter: String(seconds),
    headers: { ...tally.headers(), 'x-interlingua-attempts': '0' },
  });
}
