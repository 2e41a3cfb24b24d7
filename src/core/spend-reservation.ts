/**
 * A chat's reserved spend against its key's budget (src/plugins/budgets.ts), held while the request is in
 * flight: given back once its real cost is recorded, or it failed. The route holds it and releases it.
 */
import type { MaybePromise } from './maybe-promise.js';

export interface SpendReservation {
  /** Gives the reservation back (idempotent; never rejects). */
  release(): MaybePromise<void>;
}
