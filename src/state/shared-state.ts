/**
 * The state replicas must share: rate-limit counters and stored Responses. In-process by default;
 * Redis when `state.redis` is set, so that several gateway processes behind one load balancer agree.
 */
import type { DocumentStore } from '../core/document-store.js';
import type { UsageRecorder } from '../core/usage-log.js';
import type { SharedSpendReservations, StreamSlots, WindowCounter } from './limit-counters.js';

/** One rate-limit counter family: `name` keeps families apart in a shared store (`server:requests`, `key:tokens`). */
export type WindowCounterOptions = { name: string; points: number; durationSeconds: number };

/** What a rate limit does when its store fails: `open` admits uncounted, `closed` refuses with a 503. */
export type StateErrorPolicy = 'open' | 'closed';

type CommonState = {
  /** Per-window counters (requests, tokens per minute) that live in this state. */
  windowCounter(options: WindowCounterOptions): WindowCounter;
  /** Concurrent-stream slots (`name`: `server:streams`, `key:streams`) that live in this state. */
  streamSlots(name: string): StreamSlots;
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
  /** Tokens and spend per key, model and day, for every replica's `GET /v1/usage`. */
  usage: UsageRecorder;
  /** Budget reservations of requests in flight, which every replica counts (in process, the budget ledger keeps them). */
  spendReservations: SharedSpendReservations;
};

export type SharedState = InProcessState | RedisState;
