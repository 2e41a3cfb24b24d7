/** Keyed JSON text with a time to live, in a store every replica reaches (Redis); what stored responses are kept in. */

export interface DocumentStore {
  /** The text under `key`, or undefined when absent or expired; rejects (quickly) when the store is down. */
  get(key: string): Promise<string | undefined>;
  /** Sets every entry, each expiring after `ttlMs`, in one round trip and all or nothing. */
  set(entries: readonly (readonly [key: string, value: string])[], ttlMs: number): Promise<void>;
  /** Whether `key` existed. */
  delete(key: string): Promise<boolean>;
  /** Whether a command would be sent now (connected); false means it would fail at once. */
  readonly available: boolean;
}
