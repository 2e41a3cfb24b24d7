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
import type { LimitSettings } from '../config/config-types.js';
import type { GatewayError } from '../core/gateway-error.js';
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
import { noLimits, type Admission } from './admission.js';
import { HeaderTally, rateLimitExceeded } from './rate-limit-headers.js';
import { stateUnavailable } from '../core/state-unavailable.js';

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

  /** Whether any scope has a limit: without one, no route runs a limits hook at all (rate-limits-hook.ts). */
  get active(): boolean {
    for (const plan of this.stepsByKey.values()) if (plan.steps.length > 0) return true;
    return false;
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
    if (result === noSlot) return rateLimitExceeded(`${scope.settings.concurrentStreams} concurrent streams`, scope.label, 1000, tally);
    if (!('consumedPoints' in result)) return undefined;
    if (step.type === 'tokens') {
      const limit = scope.settings.tokensPerMinute as number;
      const remaining = Math.max(0, limit - result.consumedPoints);
      tally.note(tally.tokens, limit, remaining, result.msBeforeNext);
      return remaining === 0 ? rateLimitExceeded(`${limit} tokens per minute`, scope.label, result.msBeforeNext, tally) : undefined;
    }
    const limit = scope.settings.requestsPerMinute as number;
    // A refused request still counts in its own window (as rate-limiter-flexible's consume does).
    const remaining = Math.max(0, limit - result.consumedPoints);
    tally.note(tally.requests, limit, remaining, result.msBeforeNext);
    return result.consumedPoints > limit
      ? rateLimitExceeded(`${limit} requests per minute`, scope.label, result.msBeforeNext, tally)
      : undefined;
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
