/**
 * Stored responses in the shared state's documents (Redis), so that any replica continues a
 * conversation another one started. One document per response holds it whole (response and the
 * conversation it came from), and one small index entry per item id names the response holding it:
 * `previous_response_id` and GET are one round trip, `item_reference` two, storing one (a transaction).
 */
import type { DocumentStore } from '../../src/core/document-store.js';
import { stateUnavailable } from '../../src/core/state-unavailable.js';
import type { StoredResponse } from './response-store.js';
import type { WireInputItem } from './responses-request-schema.js';
import type { StoredResponses } from './stored-responses.js';

export type DocumentResponseStoreOptions = {
  /** Put before every key (`interlingua:`). */
  keyPrefix: string;
  ttlMs: number;
  /** A response whose JSON is larger is not kept (like one larger than the in-process store's whole budget). */
  maxBytes: number;
};

export class DocumentResponseStore implements StoredResponses {
  constructor(
    private readonly documents: DocumentStore,
    private readonly options: DocumentResponseStoreOptions,
  ) {}

  async get(id: string): Promise<StoredResponse | undefined> {
    const text = await this.read(this.responseKey(id));
    return text === undefined ? undefined : (JSON.parse(text) as StoredResponse);
  }

  async getItem(id: string): Promise<WireInputItem | undefined> {
    const holder = await this.read(this.itemKey(id));
    if (holder === undefined) return undefined;
    const stored = await this.get(holder);
    return stored && [...stored.input, ...(stored.response.output as WireInputItem[])].find((item) => item.id === id);
  }

  assertWritable(): void {
    if (!this.documents.available)
      throw stateUnavailable('a response with store on cannot be kept (send store: false to generate without keeping it)');
  }

  async put(stored: StoredResponse): Promise<void> {
    const id = stored.response.id;
    const text = JSON.stringify(stored);
    if (Buffer.byteLength(text) > this.options.maxBytes) return;
    const entries: [string, string][] = [[this.responseKey(id), text]];
    for (const item of [...stored.input, ...(stored.response.output as WireInputItem[])]) {
      if (typeof item.id === 'string') entries.push([this.itemKey(item.id), id]);
    }
    try {
      await this.documents.set(entries, this.options.ttlMs);
    } catch (error) {
      throw stateUnavailable('the response could not be kept', error);
    }
  }

  async delete(id: string): Promise<boolean> {
    try {
      // The item index entries stay until they expire: they name a response that is gone, so they find nothing.
      return await this.documents.delete(this.responseKey(id));
    } catch (error) {
      throw stateUnavailable('stored responses cannot be deleted', error);
    }
  }

  private async read(key: string): Promise<string | undefined> {
    try {
      return await this.documents.get(key);
    } catch (error) {
      throw stateUnavailable('stored responses (previous_response_id, item_reference, GET) cannot be read', error);
    }
  }

  private responseKey(id: string): string {
    return `${this.options.keyPrefix}response:${id}`;
  }

  private itemKey(id: string): string {
    return `${this.options.keyPrefix}item:${id}`;
  }
}
