/**
 * A small in-memory LRU of finished responses, so `previous_response_id` works within one gateway
 * process: each entry holds the whole conversation (earlier items, this turn's input and its
 * output). Entries share item objects with their predecessors, so a long agent session costs one
 * array of references per turn, not a copy of the history.
 */
import type { WireInputItem } from './responses-wire.js';

export type ResponseStoreOptions = {
  maxEntries?: number;
  ttlMs?: number;
  /** Injectable clock for tests. */
  now?: () => number;
};

type Entry = { items: readonly WireInputItem[]; storedAt: number };

export class ResponseStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: ResponseStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 200;
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The conversation items up to and including the response's output; undefined when unknown or expired. */
  get(id: string): readonly WireInputItem[] | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    // Re-insert: a Map iterates in insertion order, so the oldest-used entry is always first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.items;
  }

  save(id: string, items: readonly WireInputItem[]): void {
    this.entries.delete(id);
    this.entries.set(id, { items, storedAt: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
