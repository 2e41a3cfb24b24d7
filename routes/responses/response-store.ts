/**
 * A small in-memory LRU of finished responses, for `previous_response_id`, `item_reference`,
 * `GET/DELETE /v1/responses/{id}` and its `input_items`, within one gateway process. Bounded by
 * entries, by age and by bytes (a single request may be 32 MB, so 200 entries alone bound nothing).
 */
import type { WireInputItem } from './responses-request-schema.js';
import type { WireResponse } from './responses-wire.js';

export type StoredResponse = {
  response: WireResponse;
  /** What the response was generated from: earlier turns (previous_response_id) plus this request's input. */
  input: readonly WireInputItem[];
};

export type ResponseStoreOptions = {
  maxEntries?: number;
  /** Upper bound on the JSON size of everything kept; the least recently used entries go first. */
  maxBytes?: number;
  ttlMs?: number;
  /** Injectable clock for tests. */
  now?: () => number;
};

type Entry = { stored: StoredResponse; storedAt: number; ownBytes: number };

/** One item object, shared by every entry whose conversation holds it, and what it costs. */
type HeldItem = { references: number; bytes: number };

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * An entry shares item objects with its predecessors (a continued conversation is an array of
 * references to the earlier turns' items, not a copy), so bytes are counted per item object, once,
 * however many entries hold it, and given back when the last one goes: the count is what is held.
 */
export class ResponseStore {
  private readonly entries = new Map<string, Entry>();
  private readonly heldItems = new Map<WireInputItem, HeldItem>();
  private readonly itemsById = new Map<string, WireInputItem>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private heldBytes = 0;

  constructor(options: ResponseStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 200;
    this.maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The JSON size of everything kept. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Undefined when unknown, deleted or expired. */
  get(id: string): StoredResponse | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.ttlMs) {
      this.delete(id);
      return undefined;
    }
    // Re-insert: a Map iterates in insertion order, so the oldest-used entry is always first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.stored;
  }

  /** An input or output item of a kept response, by its `id` (what `item_reference` names). */
  getItem(id: string): WireInputItem | undefined {
    return this.itemsById.get(id);
  }

  /** Keeps the response under its id; one larger than the whole byte budget is not kept. */
  put(stored: StoredResponse): void {
    const id = stored.response.id;
    this.delete(id);
    const entry: Entry = { stored, storedAt: this.now(), ownBytes: jsonBytes({ ...stored.response, output: [] }) };
    this.entries.set(id, entry);
    this.heldBytes += entry.ownBytes;
    for (const item of this.itemsOf(stored)) this.hold(item);
    while (this.entries.size > this.maxEntries || this.heldBytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  /** False when there was no such response. */
  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.heldBytes -= entry.ownBytes;
    for (const item of this.itemsOf(entry.stored)) this.release(item);
    return true;
  }

  private itemsOf(stored: StoredResponse): WireInputItem[] {
    return [...stored.input, ...(stored.response.output as WireInputItem[])];
  }

  private hold(item: WireInputItem): void {
    const held = this.heldItems.get(item);
    if (held) {
      held.references++;
      return;
    }
    const bytes = jsonBytes(item);
    this.heldItems.set(item, { references: 1, bytes });
    this.heldBytes += bytes;
    if (typeof item.id === 'string') this.itemsById.set(item.id, item);
  }

  private release(item: WireInputItem): void {
    const held = this.heldItems.get(item);
    if (!held) return;
    if (--held.references > 0) return;
    this.heldItems.delete(item);
    this.heldBytes -= held.bytes;
    if (typeof item.id === 'string' && this.itemsById.get(item.id) === item) this.itemsById.delete(item.id);
  }
}
