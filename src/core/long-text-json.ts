/**
 * The JSON string literals of recent long texts. In the prompted lane the system message carries
 * the rendered tool prompt, tens of kilobytes of quotes and newlines to escape, and agents send the
 * same one on every turn; escaping (and encoding) it again cost more than the rest of the body. Keyed by content:
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

const defaultOptions: LongTextJsonOptions = { minimumLength: 4096, maximumLength: 512 * 1024, capacity: 8 };

type Entry = { text: string; json: Buffer };

export class LongTextJson {
  /** Most recently used first. A short list compared by length then content, rather than a Map: hashing a long key costs as much as a miss. */
  private readonly entries: Entry[] = [];
  private readonly options: LongTextJsonOptions;

  constructor(options: Partial<LongTextJsonOptions> = {}) {
    this.options = { ...defaultOptions, ...options };
  }

  /** JSON.stringify(text) as UTF-8 bytes, remembered; undefined for a text too short (or too long) to be worth remembering. */
  of(text: string): Buffer | undefined {
    if (text.length < this.options.minimumLength || text.length > this.options.maximumLength) return undefined;
    const index = this.entries.findIndex((entry) => entry.text.length === text.length && entry.text === text);
    if (index !== -1) {
      const [entry] = this.entries.splice(index, 1);
      this.entries.unshift(entry!);
      return entry!.json;
    }
    const json = Buffer.from(JSON.stringify(text), 'utf8');
    this.entries.unshift({ text, json });
    if (this.entries.length > this.options.capacity) this.entries.pop();
    return json;
  }
}
