/**
 * The JSON string literals of recent long texts. In the prompted lane the system message carries
 * the rendered tool prompt, tens of kilobytes of quotes and newlines to escape, and agents send the
 * same one on every turn; escaping it again cost more than the rest of the body. Keyed by content:
 * equal texts have equal JSON, and comparing long strings is a length check and a memory compare.
 */

export type LongTextJsonOptions = {
  /** Shorter texts are left to the caller's JSON.stringify. */
  minimumLength: number;
  /** Longer ones too: the memo holds a text and its JSON, so this bounds its memory. */
  maximumLength: number;
  /** Texts remembered (least recently used evicted). */
  capacity: number;
};

const defaultOptions: LongTextJsonOptions = { minimumLength: 4096, maximumLength: 1024 * 1024, capacity: 8 };

export class LongTextJson {
  private readonly entries = new Map<string, string>();
  private readonly options: LongTextJsonOptions;

  constructor(options: Partial<LongTextJsonOptions> = {}) {
    this.options = { ...defaultOptions, ...options };
  }

  /** JSON.stringify(text), remembered; undefined for a text too short (or too long) to be worth remembering. */
  of(text: string): string | undefined {
    if (text.length < this.options.minimumLength || text.length > this.options.maximumLength) return undefined;
    const cached = this.entries.get(text);
    if (cached !== undefined) {
      this.entries.delete(text);
      this.entries.set(text, cached);
      return cached;
    }
    const json = JSON.stringify(text);
    this.entries.set(text, json);
    if (this.entries.size > this.options.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return json;
  }
}
