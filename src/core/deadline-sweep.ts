/**
 * Many deadlines on one timer. Each request that needs a deadline (a body still to come, a reply read
 * whole) costs a map entry, not a timer of its own: a `setTimeout` per request, its closure and its
 * `close` listener were the largest allocation the deadlines added to every request (about 600 bytes
 * in the lanes profile). The sweep runs every `resolutionMs` while any deadline is pending, so a deadline
 * fires up to that much late; items that `settled` says are done are dropped at the next sweep.
 */
export type DeadlineSweepOptions<Item> = {
  /** How late a deadline may fire: the sweep's period. */
  resolutionMs: number;
  /** Called once for an item whose deadline passed while it was not settled. */
  expire(item: Item): void;
  /** Whether the item no longer needs its deadline (checked at each sweep); never, when absent. */
  settled?(item: Item): boolean;
};

export class DeadlineSweep<Item> {
  private readonly deadlines = new Map<Item, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DeadlineSweepOptions<Item>) {}

  /** The item expires `timeoutMs` from now unless it is deleted or settled first. */
  add(item: Item, timeoutMs: number): void {
    this.deadlines.set(item, performance.now() + timeoutMs);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.sweep(), this.options.resolutionMs);
      // Never what keeps the process alive.
      this.timer.unref();
    }
  }

  delete(item: Item): void {
    this.deadlines.delete(item);
  }

  get size(): number {
    return this.deadlines.size;
  }

  private sweep(): void {
    const now = performance.now();
    const { expire, settled } = this.options;
    for (const [item, deadline] of this.deadlines) {
      if (settled?.(item)) this.deadlines.delete(item);
      else if (deadline <= now) {
        this.deadlines.delete(item);
        expire(item);
      }
    }
    if (this.deadlines.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
