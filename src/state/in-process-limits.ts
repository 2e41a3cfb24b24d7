/**
 * The in-process store's counters, synchronous so that a request's limits cost no promise: windows in
 * rate-limiter-flexible's own memory storage (what RateLimiterMemory counts in, called directly rather
 * than through its promise API), stream slots as a plain count per key (nothing outlives the process).
 */
import MemoryStorage from 'rate-limiter-flexible/lib/component/MemoryStorage/MemoryStorage.js';
import type { SlotLease, StreamSlots, WindowCount, WindowCounter } from './limit-counters.js';

const nothingConsumed: WindowCount = { consumedPoints: 0, msBeforeNext: 0 };

export class MemoryWindowCounter implements WindowCounter {
  private readonly storage = new MemoryStorage();

  constructor(private readonly durationSeconds: number) {}

  add(key: string, points: number): WindowCount {
    return this.storage.incrby(key, points, this.durationSeconds);
  }

  read(key: string): WindowCount {
    return this.storage.get(key) ?? nothingConsumed;
  }
}

class CountedSlot implements SlotLease {
  private released = false;

  constructor(
    private readonly slots: MemoryStreamSlots,
    private readonly key: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.slots.giveBack(this.key);
  }
}

export class MemoryStreamSlots implements StreamSlots {
  private readonly held = new Map<string, number>();

  acquire(key: string, limit: number): SlotLease | undefined {
    const count = this.held.get(key) ?? 0;
    if (count >= limit) return undefined;
    this.held.set(key, count + 1);
    return new CountedSlot(this, key);
  }

  /** A key with no slot held is forgotten, so the map holds only keys streaming now. */
  giveBack(key: string): void {
    const count = (this.held.get(key) ?? 1) - 1;
    if (count <= 0) this.held.delete(key);
    else this.held.set(key, count);
  }
}
