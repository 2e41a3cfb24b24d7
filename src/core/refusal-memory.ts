/**
 * What the gateway remembers of an upstream refusing something for a model (native tools on vLLM without a
 * tool parser, tools through llama-server's template without Jinja, a llama-server without `/apply-template`,
 * a native response format), so later requests take the fallback at once instead of paying the refused
 * attempt again. Each entry is forgotten `forgetAfterMs` after it was learned: a server restarted with the
 * feature on gets the native form back on the next request after that, and one still without it refuses once
 * more and is remembered again.
 *
 * One clock and one lifetime for every memory of the app (`RefusalMemories`, made in src/app.ts, from
 * `server.refusalMemoryMs`); each memory is bounded, since the keys name models clients chose, and forgets
 * everything at once when full (a forgotten refusal costs one more refused attempt, never a wrong reply).
 */

/** The most models a memory keyed by model holds: models are named by requests, so the memory is bounded. */
export const modelsRemembered = 1_000;

/** How long a refusal is remembered unless `server.refusalMemoryMs` says otherwise: ten minutes. */
export const defaultRefusalMemoryMs = 10 * 60_000;

export type RefusalMemoryOptions = {
  /** How long a refusal is remembered; 0 forgets it at once (every request tries the native form). */
  forgetAfterMs: number;
  now: () => number;
  /** The most keys remembered; the memory is emptied when a new key would pass it. */
  capacity: number;
};

export class RefusalMemory {
  /** Each key with the time its refusal is forgotten. */
  private readonly until = new Map<string, number>();

  constructor(private readonly options: RefusalMemoryOptions) {}

  /** Whether the key's refusal is still remembered (an expired one is dropped here). */
  has(key: string): boolean {
    if (this.until.size === 0) return false;
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (this.options.now() < until) return true;
    this.until.delete(key);
    return false;
  }

  /** Remembers a refusal from now on; false when it was remembered already (the caller logs only new ones). */
  remember(key: string): boolean {
    if (this.has(key)) return false;
    if (this.until.size >= this.options.capacity) this.until.clear();
    this.until.set(key, this.options.now() + this.options.forgetAfterMs);
    return true;
  }

  /** Forgets every refusal (a server found again after a failure may have changed). */
  clear(): void {
    this.until.clear();
  }

  get size(): number {
    return this.until.size;
  }
}

/** Makes the app's refusal memories, all with the same lifetime and clock. */
export type RefusalMemories = (capacity: number) => RefusalMemory;

export function refusalMemories(
  options: Omit<RefusalMemoryOptions, 'capacity'> = { forgetAfterMs: defaultRefusalMemoryMs, now: Date.now },
): RefusalMemories {
  return (capacity) => new RefusalMemory({ ...options, capacity });
}
