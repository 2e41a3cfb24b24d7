/**
 * Where the Responses routes keep finished responses, behind one asynchronous interface: this
 * process's LRU (the default) or the shared state's documents (Redis), which every replica reads.
 */
import type { ResponseStore, StoredResponse } from './response-store.js';
import type { WireInputItem } from './responses-request-schema.js';

export interface StoredResponses {
  /** Undefined when unknown, deleted or expired; a 503 `state_unavailable` when the shared state is down. */
  get(id: string): Promise<StoredResponse | undefined>;
  /** An input or output item of a kept response, by its `id` (what `item_reference` names). */
  getItem(id: string): Promise<WireInputItem | undefined>;
  /** Throws the 503 when a response could not be kept now: checked before generating one that is to be kept. */
  assertWritable(): void;
  put(stored: StoredResponse): Promise<void>;
  /** False when there was no such response. */
  delete(id: string): Promise<boolean>;
}

export function inProcessResponses(store: ResponseStore): StoredResponses {
  return {
    get: async (id) => store.get(id),
    getItem: async (id) => store.getItem(id),
    assertWritable: () => undefined,
    put: async (stored) => store.put(stored),
    delete: async (id) => store.delete(id),
  };
}
