/**
 * What rate limits count with, behind one interface for both stores: per-window counters (requests and
 * tokens per minute) and concurrent-stream slots. Results are "maybe promises": the in-process store
 * answers synchronously, so a request pays no promise for its limits; Redis answers with a promise.
 */

import type { MaybePromise } from '../core/maybe-promise.js';
import type { SpendReservation } from '../core/spend-reservation.js';

export { isPromise, type MaybePromise } from '../core/maybe-promise.js';

/** A key's window after an operation: points counted in it so far, and milliseconds until it resets (rate-limiter-flexible's names). */
export type WindowCount = { readonly consumedPoints: number; readonly msBeforeNext: number };

/** One family of fixed-window counters (`server:requests`, `key:tokens`), a window per key. */
export interface WindowCounter {
  /** Adds `points` (negative gives them back) to `key`'s window, opening one when none is open. */
  add(key: string, points: number): MaybePromise<WindowCount>;
  /** The window as it stands: nothing consumed when none is open. */
  read(key: string): MaybePromise<WindowCount>;
}

/** A concurrent-stream slot held by one live stream. */
export interface SlotLease {
  /** Gives the slot back (idempotent). */
  release(): MaybePromise<void>;
}

/** One family of concurrent-stream slots (`server:streams`, `key:streams`), `limit` per key. */
export interface StreamSlots {
  /** Takes one of `limit` slots for `key`, or undefined when all are held. */
  acquire(key: string, limit: number): MaybePromise<SlotLease | undefined>;
}

/** One admission against a budget, in whole points (millionths of a dollar). */
export type SpendReservationRequest = {
  /** The budget's spend counter (`budget:month`) and the key's window in it (`team:2026-12`). */
  counter: string;
  countKey: string;
  /** Whose requests in flight share the reservations (the key's name). */
  holder: string;
  budgetPoints: number;
  estimatePoints: number;
};

/**
 * Reservations shared by replicas: admits a request when its key has spend left and, with other requests
 * of the key in flight, when spent + reserved + its estimate stays within the budget, reserving its estimate
 * in the same atomic step; undefined when refused.
 */
export interface SharedSpendReservations {
  reserve(request: SpendReservationRequest): Promise<SpendReservation | undefined>;
  /** What the holder's requests in flight reserve now (points), for the budget figures a client sees. */
  reservedPoints(holder: string): Promise<number>;
}
