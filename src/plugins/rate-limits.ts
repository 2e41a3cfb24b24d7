/**
 * Rate limits and quotas, per client key and server-wide: requests per minute, tokens per minute (counted
 * from each reply's usage, so a request is refused once the minute's tokens are spent) and concurrent
 * streams. Counters are rate-limiter-flexible's; past a limit the client gets a 429 with `retry-after`,
 * and every limited reply carries OpenAI's `x-ratelimit-*` headers.
 */
import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { LimitSettings } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';

/** A minute, the window of the per-minute limits. */
const windowSeconds = 60;

type Limiters = { requests?: RateLimiterMemory; tokens?: RateLimiterMemory; streams?: RateLimiterMemory; settings: LimitSettings };

function limitersFor(settings: LimitSettings | undefined): Limiters | undefined {
  if (!settings || (!settings.requestsPerMinute && !settings.tokensPerMinute && !settings.concurrentStreams)) return undefined;
  const limiters: Limiters = { settings };
  if (settings.requestsPerMinute) limiters.requests = new RateLimiterMemory({ points: settings.requestsPerMinute, duration: windowSeconds });
  if (settings.tokensPerMinute) limiters.tokens = new RateLimiterMemory({ points: settings.tokensPerMinute, duration: windowSeconds });
  // Duration 0: points never expire; each stream gives its point back when it ends.
  if (settings.concurrentStreams) limiters.streams = new RateLimiterMemory({ points: settings.concurrentStreams, duration: 0 });
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
  return new GatewayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: `Rate limit reached for ${label}: ${what}. Try again in ${seconds}s.`,
    retryAfter: String(seconds),
    headers,
  });
}

/** A refusal from rate-limiter-flexible is a RateLimiterRes; anything else is the store failing. */
function refusal(error: unknown): RateLimiterRes {
  if (error instanceof RateLimiterRes) return error;
  throw error;
}

export class RateLimits {
  private readonly server: Limiters | undefined;
  private readonly perKey = new Map<string, Limiters | undefined>();

  constructor(serverLimits: LimitSettings | undefined, keyLimits: ReadonlyMap<string, LimitSettings | undefined>) {
    this.server = limitersFor(serverLimits);
    for (const [name, limits] of keyLimits) this.perKey.set(name, limitersFor(limits));
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
          await streams.consume(scope.key, 1);
          held.push(scope);
        } catch (error) {
          refusal(error);
          // A refused consume still counts its point, and stream points never expire: give it back.
          await streams.reward(scope.key, 1);
          for (const taken of held) void taken.limiters.streams?.reward(taken.key, 1);
          throw tooMany(`${scope.limiters.settings.concurrentStreams} concurrent streams`, scope.label, 1000, headers);
        }
      }
    }
    let released = false;
    return {
      headers,
      recordTokens: (tokens) => {
        if (tokens <= 0) return;
        for (const scope of scopes) void scope.limiters.tokens?.penalty(scope.key, tokens);
      },
      release: () => {
        if (released) return;
        released = true;
        for (const scope of held) void scope.limiters.streams?.reward(scope.key, 1);
      },
    };
  }

  private async consumeRequest(scope: Scope, headers: Record<string, string>): Promise<void> {
    const requests = scope.limiters.requests;
    if (!requests) return;
    const limit = scope.limiters.settings.requestsPerMinute as number;
    let result: RateLimiterRes;
    try {
      result = await requests.consume(scope.key, 1);
    } catch (error) {
      const refused = refusal(error);
      setTighter(headers, 'requests', limit, 0, refused.msBeforeNext);
      throw tooMany(`${limit} requests per minute`, scope.label, refused.msBeforeNext, headers);
    }
    setTighter(headers, 'requests', limit, result.remainingPoints, result.msBeforeNext);
  }

  private async checkTokens(scope: Scope, headers: Record<string, string>): Promise<void> {
    const tokens = scope.limiters.tokens;
    if (!tokens) return;
    const limit = scope.limiters.settings.tokensPerMinute as number;
    const used = await tokens.get(scope.key);
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
