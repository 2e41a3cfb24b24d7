/**
 * Rate limits and quotas, per client key and server-wide: requests per minute, tokens per minute (counted
 * from each reply's usage, so a request is refused once the minute's tokens are spent) and concurrent
 * streams. Windows are rate-limiter-flexible's; past a limit the client gets a 429 with `retry-after`,
 * and every limited reply carries OpenAI's `x-ratelimit-*` headers.
 *
 * A request's checks run in one pass: every counter it touches is asked at once (in-process: synchronously,
 * no promise at all; Redis: one batch of commands in flight together), then the answers are read in the
 * order the checks mean (tokens, then requests, then stream slots); what a refused request took after the
 * refusing check is given back, so the counts are those of checking one by one.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LimitSettings } from '../config/config-types.js';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { Logger } from '../core/logger.js';
import {
  isPromise,
  type MaybePromise,
  type SlotLease,
  type StreamSlots,
  type WindowCount,
  type WindowCounter,
} from '../state/limit-counters.js';
import type { SharedState } from '../state/shared-state.js';
import { stateUnavailable } from '../state/state-unavailable.js';

/** A minute, the window of the per-minute limits. */
const windowSeconds = 60;

/** The counters of one scope (the server, or one key), and what the client is told it is. */
type Scope = {
  key: string;
  label: string;
  settings: LimitSettings;
  requests?: WindowCounter;
  tokens?: WindowCounter;
  streams?: StreamSlots;
};

type Step = { type: 'tokens' | 'requests' | 'streams'; scope: Scope };

/** The limiters' store (Redis) failing, when limits fail open: the check is skipped, uncounted. */
const storeFailed = Symbol('store failed');
/** A stream slot asked for and refused (all held). */
const noSlot = Symbol('no slot');

type StepResult = WindowCount | SlotLease | typeof storeFailed | typeof noSlot | undefined;

/** `scope` (`server` or `key`) keeps the server's counters apart from a key that happens to be named `server`. */
type CounterFamilies = { requests?: WindowCounter; tokens?: WindowCounter; streams?: StreamSlots };

function countersFor(settings: LimitSettings | undefined, state: SharedState, scope: 'server' | 'key'): CounterFamilies | undefined {
  if (!settings || (!settings.requestsPerMinute && !settings.tokensPerMinute && !settings.concurrentStreams)) return undefined;
  const families: CounterFamilies = {};
  if (settings.requestsPerMinute)
    families.requests = state.windowCounter({
      name: `${scope}:requests`,
      points: settings.requestsPerMinute,
      durationSeconds: windowSeconds,
    });
  if (settings.tokensPerMinute)
    families.tokens = state.windowCounter({ name: `${scope}:tokens`, points: settings.tokensPerMinute, durationSeconds: windowSeconds });
  if (settings.concurrentStreams) families.streams = state.streamSlots(`${scope}:streams`);
  return families;
}

/** OpenAI's reset format: `20ms`, `12s`, `6m0s`. */
export function formatReset(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.ceil(milliseconds))}ms`;
  const seconds = Math.ceil(milliseconds / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

/** What one admitted request holds: headers to send, its stream slots to give back, its tokens to count. */
export type Admission = {
  headers: Record<string, string>;
  /** Whether it holds stream slots, to give back when the reply closes. */
  readonly holdsSlots: boolean;
  /** Counts the reply's tokens against the minute. */
  recordTokens(tokens: number): void;
  /** Gives back the concurrent-stream slots (idempotent). */
  release(): void;
};

const noLimits: Admission = { headers: {}, holdsSlots: false, recordTokens: () => {}, release: () => {} };

function tooMany(what: string, label: string, milliseconds: number, tally: HeaderTally): GatewayError {
  const seconds = Math.max(1, Math.ceil(milliseconds / 1000));
  // Refused before any upstream was asked.
  return gatewayError('rate_limit_exceeded', {
    message: `Rate limit reached for ${label}: ${what}. Try again in ${seconds}s.`,
    retryAfter: String(seconds),
    headers: { ...tally.headers(), 'x-interlingua-attempts': '0' },
  });
}

/** One unit's tightest window over the scopes; `limit` is -1 until a window was read. */
type Tightest = { limit: number; remaining: number; resetMs: number };

/**
 * Notes each window as it is read, and writes the six headers once at the end (not per scope and unit).
 * The tightest window of each unit (the tighter of the server's and the key's limits) is kept in one
 * object per unit, updated in place: a request allocates nothing per window.
 */
class HeaderTally {
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

class LimitedAdmission implements Admission {
  constructor(
    readonly headers: Record<string, string>,
    private readonly limits: RateLimits,
    private readonly scopes: readonly Scope[],
    private leases: SlotLease[] | undefined,
  ) {}

  get holdsSlots(): boolean {
    return this.leases !== undefined;
  }

  recordTokens(tokens: number): void {
    if (tokens <= 0) return;
    for (const scope of this.scopes) if (scope.tokens) this.limits.background(scope.tokens.add(scope.key, tokens));
  }

  release(): void {
    const leases = this.leases;
    this.leases = undefined;
    for (const lease of leases ?? []) this.limits.background(lease.release());
  }
}

export type RateLimitsOptions = {
  /** Where the counters live; in-process unless the config names a Redis. */
  state: SharedState;
  /** Where store failures are reported (they never reach a client when limits fail open). */
  log: Logger;
};

export class RateLimits {
  /** The checks of each key name (null: the gateway has no keys), built once: a request allocates none. */
  private readonly stepsByKey = new Map<string | null, { scopes: Scope[]; steps: Step[] }>();
  private readonly failOpen: boolean;
  private readonly log: Logger;
  private readonly onStoreError = (error: unknown): typeof storeFailed => {
    if (!this.failOpen) throw stateUnavailable('rate limits cannot be checked (they fail closed)', error);
    this.log.debug({ err: error }, 'rate limits: store failed; admitted uncounted');
    return storeFailed;
  };

  constructor(
    serverLimits: LimitSettings | undefined,
    keyLimits: ReadonlyMap<string, LimitSettings | undefined>,
    options: RateLimitsOptions,
  ) {
    this.failOpen = options.state.kind === 'in-process' || options.state.onError === 'open';
    this.log = options.log;
    const server = countersFor(serverLimits, options.state, 'server');
    const serverScope: Scope | undefined =
      server && serverLimits ? { key: 'server', label: 'the gateway', settings: serverLimits, ...server } : undefined;
    const stepsOf = (scopes: Scope[]) => {
      const steps: Step[] = [];
      for (const type of ['tokens', 'requests', 'streams'] as const)
        for (const scope of scopes) if (scope[type]) steps.push({ type, scope });
      return { scopes, steps };
    };
    this.stepsByKey.set(null, stepsOf(serverScope ? [serverScope] : []));
    for (const [name, limits] of keyLimits) {
      const families = countersFor(limits, options.state, 'key');
      const keyScope: Scope | undefined =
        families && limits ? { key: name, label: `the API key '${name}'`, settings: limits, ...families } : undefined;
      this.stepsByKey.set(name, stepsOf([...(serverScope ? [serverScope] : []), ...(keyScope ? [keyScope] : [])]));
    }
  }

  /** A count made after the fact (tokens used, a slot given back): a failing store must not become an unhandled rejection. */
  background(operation: MaybePromise<unknown>): void {
    if (isPromise(operation)) operation.catch((error: unknown) => this.log.debug({ err: error }, 'rate limits: store failed to count'));
  }

  /**
   * Refuses with a 429 (headers included) or admits; `keyName` is null when the gateway has no keys.
   * Synchronous when every counter is (in-process state).
   */
  admit(keyName: string | null, stream: boolean): MaybePromise<Admission> {
    const plan = this.stepsByKey.get(keyName) ?? this.stepsByKey.get(null);
    if (!plan || plan.steps.length === 0) return noLimits;
    const { scopes, steps } = plan;
    const results: MaybePromise<StepResult>[] = new Array(steps.length);
    let pending = false;
    for (let index = 0; index < steps.length; index++) {
      const result = this.start(steps[index]!, stream);
      if (isPromise(result)) {
        pending = true;
        results[index] = result.then(undefined, this.onStoreError);
      } else results[index] = result;
    }
    if (!pending) return this.decide(scopes, steps, results as StepResult[]);
    return Promise.all(results).then((settled) => this.decide(scopes, steps, settled));
  }

  private start(step: Step, stream: boolean): MaybePromise<StepResult> {
    const { scope } = step;
    switch (step.type) {
      case 'tokens':
        return scope.tokens?.read(scope.key);
      case 'requests':
        return scope.requests?.add(scope.key, 1);
      case 'streams': {
        if (!stream || !scope.streams) return undefined;
        const lease = scope.streams.acquire(scope.key, scope.settings.concurrentStreams as number);
        return isPromise(lease) ? lease.then((taken) => taken ?? noSlot) : (lease ?? noSlot);
      }
    }
  }

  /** Reads the answers in order; at the first refusal, gives back what the later checks took, and throws the 429. */
  private decide(scopes: readonly Scope[], steps: readonly Step[], results: readonly StepResult[]): Admission {
    const tally = new HeaderTally();
    let leases: SlotLease[] | undefined;
    for (let index = 0; index < steps.length; index++) {
      const result = results[index];
      if (result === undefined || result === storeFailed) continue;
      const refusal = this.check(steps[index]!, result, tally);
      if (refusal) {
        this.giveBack(steps, results, index, leases);
        throw refusal;
      }
      if (result !== noSlot && !('consumedPoints' in result)) (leases ??= []).push(result);
    }
    return new LimitedAdmission(tally.headers(), this, scopes, leases);
  }

  private check(step: Step, result: WindowCount | SlotLease | typeof noSlot, tally: HeaderTally): GatewayError | undefined {
    const { scope } = step;
    if (result === noSlot) return tooMany(`${scope.settings.concurrentStreams} concurrent streams`, scope.label, 1000, tally);
    if (!('consumedPoints' in result)) return undefined;
    if (step.type === 'tokens') {
      const limit = scope.settings.tokensPerMinute as number;
      const remaining = Math.max(0, limit - result.consumedPoints);
      tally.note(tally.tokens, limit, remaining, result.msBeforeNext);
      return remaining === 0 ? tooMany(`${limit} tokens per minute`, scope.label, result.msBeforeNext, tally) : undefined;
    }
    const limit = scope.settings.requestsPerMinute as number;
    // A refused request still counts in its own window (as rate-limiter-flexible's consume does).
    const remaining = Math.max(0, limit - result.consumedPoints);
    tally.note(tally.requests, limit, remaining, result.msBeforeNext);
    return result.consumedPoints > limit ? tooMany(`${limit} requests per minute`, scope.label, result.msBeforeNext, tally) : undefined;
  }

  /** Undoes what checking one by one would never have done: the checks after the refusing one, and the slots taken before it. */
  private giveBack(steps: readonly Step[], results: readonly StepResult[], refusedAt: number, leasesBefore: SlotLease[] | undefined): void {
    for (const lease of leasesBefore ?? []) this.background(lease.release());
    for (let index = refusedAt + 1; index < steps.length; index++) {
      const result = results[index];
      if (result === undefined || result === storeFailed || result === noSlot) continue;
      const { scope } = steps[index]!;
      if (!('consumedPoints' in result)) this.background(result.release());
      else if (steps[index]!.type === 'requests') this.background(scope.requests?.add(scope.key, -1));
    }
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate-limit admission of a generating request (null elsewhere, or with no limits). */
    admission: Admission | null;
  }
  interface FastifyInstance {
    /** The limits, for generations that are no HTTP request of their own (a WebSocket turn). */
    rateLimits?: RateLimits;
  }
}

/** The routes that generate (and so count): Chat Completions, Responses, Messages, embeddings, on /v1 and /{provider}/v1. */
const limitedRoute = /\/v1\/(?:chat\/completions|responses|messages|embeddings)$/;

function holdAdmission(request: FastifyRequest, reply: FastifyReply, admission: Admission): void {
  if (admission === noLimits) return;
  request.admission = admission;
  void reply.headers(admission.headers);
  // Only a stream holds slots: other requests add no listener.
  if (admission.holdsSlots) reply.raw.once('close', () => admission.release());
}

/** Whether a route counts against the limits: a POST to one of the generating routes. */
export function isLimitedRoute(method: string | readonly string[], url: string): boolean {
  const posts = typeof method === 'string' ? method === 'POST' : method.includes('POST');
  return posts && limitedRoute.test(url);
}

export function registerRateLimits(app: FastifyInstance, limits: RateLimits): void {
  app.decorateRequest('admission', null);
  app.decorate('rateLimits', limits);
  // A callback hook, not an async one: in-process limits answer synchronously, and then no promise is made.
  const admitRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    // A route that also answers other methods is limited for its POSTs only.
    if (request.method !== 'POST') return done();
    const body = request.body as { stream?: unknown } | null;
    let admission: MaybePromise<Admission>;
    try {
      admission = limits.admit(request.access?.name ?? null, body?.stream === true);
    } catch (error) {
      return done(error as Error);
    }
    if (!isPromise(admission)) {
      holdAdmission(request, reply, admission);
      return done();
    }
    admission.then((admitted) => {
      holdAdmission(request, reply, admitted);
      done();
    }, done);
  };
  // Chosen once per route as it is registered, not per request: other routes run no limits hook at all
  // (and no request reads fastify's routeOptions getter, which builds an object on every read).
  app.addHook('onRoute', (route) => {
    if (!isLimitedRoute(route.method, route.url)) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? admitRequest : [admitRequest, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
