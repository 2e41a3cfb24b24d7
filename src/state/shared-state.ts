/**
 * The state replicas must share: rate-limit counters and stored Responses. In-process by default;
 * Redis when `state.redis` is set, so that several gateway processes behind one load balancer agree.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DocumentStore } from './document-store.js';

/** One rate-limit counter family: `name` keeps families apart in a shared store (`server:requests`, `key:tokens`). */
export type LimiterOptions = { name: string; points: number; duration: number };

/** What a rate limit does when its store fails: `open` admits uncounted, `closed` refuses with a 503. */
export type StateErrorPolicy = 'open' | 'closed';

type CommonState = {
  /** A rate-limiter-flexible limiter whose counters live in this state. */
  createLimiter(options: LimiterOptions): RateLimiterAbstract;
  /** Why the state cannot serve now (for /ready), or undefined when it can. */
  problem(): Promise<string | undefined>;
  /**
   * Connects (Redis), waiting for the first connection at most the connect timeout; `--check-config`
   * builds the app without calling it, so it never connects.
   */
  connect(): Promise<void>;
  close(): Promise<void>;
};

/** Counters in this process's memory; the Responses route keeps its own LRU of response objects. */
export type InProcessState = CommonState & { kind: 'in-process' };

/** Counters and stored responses in Redis, shared by every replica pointed at it. */
export type RedisState = CommonState & {
  kind: 'redis';
  documents: DocumentStore;
  onError: StateErrorPolicy;
};

export type SharedState = InProcessState | RedisState;
