/**
 * Many deadlines on one timer. Each request that needs a deadline (a body still to come, a reply read
 * whole) costs one list entry, not a timer of its own: a `setTimeout` per request, its closure and its
 * `close` listener were the largest allocation the deadlines added to every request (about 600 bytes
 * in the lanes profile); and a list, not a Map, for the reason src/core/linked-entries.ts gives. The sweep
 * runs every `resolutionMs` while any deadline is pending, so a deadline fires up to that much late;
 * items that `settled` says are done are dropped at the next sweep.
 */
import { LinkedEntries, type LinkedEntry } from './linked-entries.js';

export type DeadlineSweepOptions<Item> = {
  /** How late a deadline may fire: the sweep's period. */
  resolutionMs: number;
  /** Called once for an item whose deadline passed while it was not settled. */
  expire(item: Item): void;
  /** Whether the item no longer needs its deadline (checked at each sweep); never, when absent. */
  settled?(item: Item): boolean;
};

/** An item and when it expires (performance.now() time); the handle `delete` takes. */
export type Deadline<Item> = LinkedEntry<{ item: Item; at: number }>;

export class DeadlineSweep<Item> {
  private readonly deadlines = new LinkedEntries<{ item: Item; at: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DeadlineSweepOptions<Item>) {}

  /** The item expires `timeoutMs` from now unless its deadline is deleted or it settles first. */
  add(item: Item, timeoutMs: number): Deadline<Item> {
    const deadline = this.deadlines.add({ item, at: performance.now() + timeoutMs });
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.sweep(), this.options.resolutionMs);
      // Never what keeps the process alive.
      this.timer.unref();
    }
    return deadline;
  }

  /** Drops the deadline (a second delete, or one after it expired, does nothing). */
  delete(deadline: Deadline<Item>): void {
    this.deadlines.remove(deadline);
  }

  get size(): number {
    return this.deadlines.size;
  }

  private sweep(): void {
    const now = performance.now();
    const { expire, settled } = this.options;
    for (const deadline of this.deadlines.entries()) {
      const { item, at } = deadline.item;
      if (settled?.(item)) this.deadlines.remove(deadline);
      else if (at <= now) {
        this.deadlines.remove(deadline);
        expire(item);
      }
    }
    if (this.deadlines.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
