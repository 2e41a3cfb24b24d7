/**
 * Rate limits and quotas, per client key and server-wide: requests per minute, tokens per minute (counted
 * from each reply's usage, so a request is refused once the minute's tokens are spent) and concurrent
 * streams. Counters are rate-limiter-flexible's; past a limit the client gets a 429 with `retry-after`,
 * and every limited reply carries OpenAI's `x-ratelimit-*` headers.
 */
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitSettings } from '../config/config-types.js';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { Logger } from '../core/logger.js';
import type { SharedState } from '../state/shared-state.js';
import { stateUnavailable } from '../state/state-unavailable.js';

/** A minute, the window of the per-minute limits. */
const windowSeconds = 60;

type Limiters = { requests?: RateLimiterAbstract; tokens?: RateLimiterAbstract; streams?: RateLimiterAbstract; settings: LimitSettings };

/** `scope` (`server` or `key`) keeps the server's counters apart from a key that happens to be named `server`. */
function limitersFor(settings: LimitSettings | undefined, state: SharedState, scope: 'server' | 'key'): Limiters | undefined {
  if (!settings || (!settings.requestsPerMinute && !settings.tokensPerMinute && !settings.concurrentStreams)) return undefined;
  const limiters: Limiters = { settings };
  if (settings.requestsPerMinute) limiters.requests = state.createLimiter({ name: `${scope}:requests`, points: settings.requestsPerMinute, duration: windowSeconds });
  if (settings.tokensPerMinute) limiters.tokens = state.createLimiter({ name: `${scope}:tokens`, points: settings.tokensPerMinute, duration: windowSeconds });
  // Duration 0: points never expire; each stream gives its point back when it ends.
  if (settings.concurrentStreams) limiters.streams = state.createLimiter({ name: `${scope}:streams`, points: settings.concurrentStreams, duration: 0 });
  return limiters;
}

/** OpenAI's reset format: `20ms`, `12s`, `6m0s`. */
export function formatReset(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.ceil(milliseconds))}ms`;
  const seconds = Math.ceil(milliseconds / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

/** What one admitted request holds: headers to send, its stream slot to give back, its tokens to count. */
export type Admission = {
  headers: Record<string, string>;
  /** Counts the reply's tokens against the minute. */
  recordTokens(tokens: number): void;
  /** Gives back the concurrent-stream slot (idempotent). */
  release(): void;
};

const noLimits: Admission = { headers: {}, recordTokens: () => {}, release: () => {} };

type Scope = { key: string; limiters: Limiters; label: string };

function tooMany(what: string, label: string, milliseconds: number, headers: Record<string, string>): GatewayError {
  const seconds = Math.max(1, Math.ceil(milliseconds / 1000));
  return gatewayError('rate_limit_exceeded', { message: `Rate limit reached for ${label}: ${what}. Try again in ${seconds}s.`, retryAfter: String(seconds), headers });
}

/** The limiters' store (Redis) failing, when limits fail open: the request goes on uncounted. */
const storeFailed = Symbol('store failed');

export type RateLimitsOptions = {
  /** Where the counters live; in-process unless the config names a Redis. */
  state: SharedState;
  /** Where store failures are reported (they never reach a client when limits fail open). */
  log: Logger;
};

export class RateLimits {
  private readonly server: Limiters | undefined;
  private readonly perKey = new Map<string, Limiters | undefined>();
  private readonly failOpen: boolean;
  private readonly log: Logger;

  constructor(serverLimits: LimitSettings | undefined, keyLimits: ReadonlyMap<string, LimitSettings | undefined>, options: RateLimitsOptions) {
    this.server = limitersFor(serverLimits, options.state, 'server');
    for (const [name, limits] of keyLimits) this.perKey.set(name, limitersFor(limits, options.state, 'key'));
    this.failOpen = options.state.kind === 'in-process' || options.state.onError === 'open';
    this.log = options.log;
  }

  /**
   * Runs one counter operation. A refusal (a RateLimiterRes) is rethrown for the caller; the store
   * failing is a 503 when limits fail closed, or `storeFailed` (and a debug line) when they fail open.
   */
  private async counted<T>(operation: () => Promise<T>): Promise<T | typeof storeFailed> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error;
      if (!this.failOpen) throw stateUnavailable('rate limits cannot be checked (they fail closed)', error);
      this.log.debug({ err: error }, 'rate limits: store failed; admitted uncounted');
      return storeFailed;
    }
  }

  /** A count made after the fact (tokens used, a stream slot given back): a failing store must not become an unhandled rejection. */
  private background(operation: Promise<unknown> | undefined): void {
    operation?.catch((error: unknown) => this.log.debug({ err: error }, 'rate limits: store failed to count'));
  }

  /** Refuses with a 429 (headers included) or admits; `keyName` is null when the gateway has no keys. */
  async admit(keyName: string | null, stream: boolean): Promise<Admission> {
    const scopes: Scope[] = [];
    if (this.server) scopes.push({ key: 'server', limiters: this.server, label: 'the gateway' });
    const keyLimiters = keyName === null ? undefined : this.perKey.get(keyName);
    if (keyLimiters && keyName !== null) scopes.push({ key: keyName, limiters: keyLimiters, label: `the API key '${keyName}'` });
    if (scopes.length === 0) return noLimits;

    const headers: Record<string, string> = {};
    for (const scope of scopes) await this.checkTokens(scope, headers);
    for (const scope of scopes) await this.consumeRequest(scope, headers);
    const held: Scope[] = [];
    if (stream) {
      for (const scope of scopes) {
        const streams = scope.limiters.streams;
        if (!streams) continue;
        try {
          // Uncounted (store failed, limits open): no slot is held, so none is given back.
          if ((await this.counted(() => streams.consume(scope.key, 1))) !== storeFailed) held.push(scope);
        } catch (error) {
          for (const taken of held) this.background(taken.limiters.streams?.reward(taken.key, 1));
          if (!(error instanceof RateLimiterRes)) throw error;
          // A refused consume still counts its point, and stream points never expire: give it back.
          this.background(streams.reward(scope.key, 1));
          throw tooMany(`${scope.limiters.settings.concurrentStreams} concurrent streams`, scope.label, 1000, headers);
        }
      }
    }
    let released = false;
    return {
      headers,
      recordTokens: (tokens) => {
        if (tokens <= 0) return;
        for (const scope of scopes) this.background(scope.limiters.tokens?.penalty(scope.key, tokens));
      },
      release: () => {
        if (released) return;
        released = true;
        for (const scope of held) this.background(scope.limiters.streams?.reward(scope.key, 1));
      },
    };
  }

  private async consumeRequest(scope: Scope, headers: Record<string, string>): Promise<void> {
    const requests = scope.limiters.requests;
    if (!requests) return;
    const limit = scope.limiters.settings.requestsPerMinute as number;
    let result: RateLimiterRes | typeof storeFailed;
    try {
      result = await this.counted(() => requests.consume(scope.key, 1));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      setTighter(headers, 'requests', limit, 0, error.msBeforeNext);
      throw tooMany(`${limit} requests per minute`, scope.label, error.msBeforeNext, headers);
    }
    if (result === storeFailed) return;
    setTighter(headers, 'requests', limit, result.remainingPoints, result.msBeforeNext);
  }

  private async checkTokens(scope: Scope, headers: Record<string, string>): Promise<void> {
    const tokens = scope.limiters.tokens;
    if (!tokens) return;
    const limit = scope.limiters.settings.tokensPerMinute as number;
    const used = await this.counted(() => tokens.get(scope.key));
    if (used === storeFailed) return;
    const remaining = Math.max(0, limit - (used?.consumedPoints ?? 0));
    const reset = used?.msBeforeNext ?? 0;
    setTighter(headers, 'tokens', limit, remaining, reset);
    if (remaining === 0) throw tooMany(`${limit} tokens per minute`, scope.label, reset, headers);
  }
}

/** The headers speak of the tighter of the server's and the key's limits. */
function setTighter(headers: Record<string, string>, unit: 'requests' | 'tokens', limit: number, remaining: number, resetMs: number): void {
  const current = headers[`x-ratelimit-remaining-${unit}`];
  if (current !== undefined && Number(current) <= remaining) return;
  headers[`x-ratelimit-limit-${unit}`] = String(limit);
  headers[`x-ratelimit-remaining-${unit}`] = String(remaining);
  headers[`x-ratelimit-reset-${unit}`] = formatReset(resetMs);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit admission of a generating request (null elsewhere, or with no limits). */
    admission: Admission | null;
  }
}

/** The routes that generate (and so count): Chat Completions, Responses, Messages, embeddings, on /v1 and /{provider}/v1. */
const limitedRoute = /\/v1\/(?:chat\/completions|responses|messages|embeddings)$/;

export function registerRateLimits(app: FastifyInstance, limits: RateLimits): void {
  app.decorateRequest('admission', null);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !limitedRoute.test(request.routeOptions.url ?? '')) return;
    const body = request.body as { stream?: unknown } | null;
    const admission = await limits.admit(request.access?.name ?? null, body?.stream === true);
    if (admission === noLimits) return;
    request.admission = admission;
    void reply.headers(admission.headers);
    reply.raw.once('close', admission.release);
  });
}
