/** Finds literal markers (tags, fences, special tokens) in streamed text, reporting a possible partial marker at the end. */
import { CharCodeSet } from './char-code-set.js';

export type MarkerEntry<T> = { marker: string; value: T };

export type MarkerHit<T> =
  | { type: 'found'; index: number; marker: string; value: T }
  /** `text[index..]` is a proper prefix of a marker: more text is needed to decide. */
  | { type: 'partial'; index: number }
  | { type: 'none' };

const none = { type: 'none' } as const;

/**
 * One character of some markers: the marker ending here, and the characters that may follow with
 * their nodes, side by side. Nodes have one or a few children, so a linear search beats a Map lookup.
 */
type TrieNode<T> = { entry: MarkerEntry<T> | undefined; codes: number[]; children: TrieNode<T>[] };

function childOf<T>(node: TrieNode<T>, code: number): TrieNode<T> | undefined {
  const codes = node.codes;
  for (let index = 0; index < codes.length; index++) if (codes[index] === code) return node.children[index];
  return undefined;
}

/** Slots of the table of first-two-character pairs (a power of two: the key is masked). */
const pairSlots = 4096;

function pairKey(first: number, second: number): number {
  return (first * 31 + second) & (pairSlots - 1);
}

/**
 * The first two characters of every marker, hashed into a table: a character a marker starts with is
 * a marker start only when the next one fits too. Prose is full of them (`f` of `functools[`, `A` of
 * `Action:`, `<` of a comparison), and this rules most out without walking the trie. A marker one
 * character long fills every slot of its first character's row, so it is never ruled out.
 */
function buildPairs(entries: readonly MarkerEntry<unknown>[]): Uint8Array {
  const pairs = new Uint8Array(pairSlots);
  for (const { marker } of entries) {
    const first = marker.charCodeAt(0);
    if (marker.length === 1) for (let second = 0; second < pairSlots; second++) pairs[pairKey(first, second)] = 1;
    else pairs[pairKey(first, marker.charCodeAt(1))] = 1;
  }
  return pairs;
}

/** The trie of `entries`; the first registration of a marker wins. */
function buildTrie<T>(entries: readonly MarkerEntry<T>[]): TrieNode<T> {
  const root: TrieNode<T> = { entry: undefined, codes: [], children: [] };
  for (const entry of entries) {
    let node = root;
    for (let index = 0; index < entry.marker.length; index++) {
      const code = entry.marker.charCodeAt(index);
      let child = childOf(node, code);
      if (child === undefined) {
        child = { entry: undefined, codes: [], children: [] };
        node.codes.push(code);
        node.children.push(child);
      }
      node = child;
    }
    node.entry ??= entry;
  }
  return root;
}

export class MarkerMatcher<T> {
  readonly firstCodes: CharCodeSet;
  /**
   * The markers as a trie, so a match costs one step per character instead of one comparison per
   * marker. Built on first use: a registry builds thousands of matchers, and most parsers use few.
   */
  private trie: TrieNode<T> | undefined;
  /** See `buildPairs`; built with the trie. */
  private pairs: Uint8Array | undefined;

  constructor(private readonly entries: readonly MarkerEntry<T>[]) {
    for (const entry of entries) if (entry.marker.length === 0) throw new Error('Empty marker');
    this.firstCodes = CharCodeSet.ofFirstCharacters(entries.map((entry) => entry.marker));
  }

  /**
   * The marker starting exactly at `index` (the longest one). When a longer marker could still
   * match once more text arrives, the answer is `partial`, so results never depend on chunking.
   */
  matchAt(text: string, index: number): MarkerHit<T> {
    this.trie ??= buildTrie(this.entries);
    let node = childOf(this.trie, text.charCodeAt(index));
    if (node === undefined) return none;
    let longest = node.entry;
    for (let position = index + 1; node.codes.length > 0; position++) {
      if (position >= text.length) return { type: 'partial', index };
      node = childOf(node, text.charCodeAt(position));
      if (node === undefined) break;
      if (node.entry !== undefined) longest = node.entry;
    }
    return longest === undefined ? none : { type: 'found', index, marker: longest.marker, value: longest.value };
  }

  /**
   * Whether a marker (or, at the very end, a proper prefix of one) may start at `index`, whose
   * character `code` is one of `firstCodes`: false only when the next character rules every marker out.
   */
  private mayStartAt(text: string, index: number, code: number): boolean {
    if (index + 1 >= text.length) return true;
    this.pairs ??= buildPairs(this.entries);
    return this.pairs[pairKey(code, text.charCodeAt(index + 1))] === 1;
  }

  /**
   * Whether some marker, or a proper prefix of one at the end, may start in `text` at or after `from`
   * (false means none does; true is only a may). For fast paths over whole chunks.
   */
  mayHoldMarker(text: string, from = 0): boolean {
    const firstCodes = this.firstCodes;
    for (let index = from; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (firstCodes.has(code) && this.mayStartAt(text, index, code)) return true;
    }
    return false;
  }

  /** The first marker at or after `from`; a possible partial marker at the end of `text` stops the search. */
  find(text: string, from: number): MarkerHit<T> {
    return this.findBefore(text, from, -1) as MarkerHit<T>;
  }

  /**
   * Like `find`, but a `stopCode` character met before any marker ends the search with a `stop` hit
   * (one pass over the text, so a caller stopping at every newline stays linear).
   */
  findBefore(text: string, from: number, stopCode: number): MarkerHit<T> | { type: 'stop'; index: number } {
    const firstCodes = this.firstCodes;
    for (let index = from; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === stopCode) return { type: 'stop', index };
      if (!firstCodes.has(code) || !this.mayStartAt(text, index, code)) continue;
      const hit = this.matchAt(text, index);
      if (hit.type !== 'none') return hit;
    }
    return none;
  }
}

/**
 * Where a proper prefix of `marker` starts at the end of `text` (searching no earlier than `from`),
 * or `text.length` when the text cannot end inside the marker.
 */
export function partialMarkerStart(text: string, from: number, marker: string): number {
  const longest = Math.min(marker.length - 1, text.length - from);
  const first = marker.charCodeAt(0);
  // Compared in place: this runs on every streamed chunk, and slicing the marker each time would allocate.
  for (let length = longest; length > 0; length--) {
    const start = text.length - length;
    if (text.charCodeAt(start) === first && endsWithPrefix(text, start, marker, length)) return start;
  }
  return text.length;
}

/** Whether `text[start..]` (`length` characters, up to its end) equals the first `length` characters of `marker`. */
function endsWithPrefix(text: string, start: number, marker: string, length: number): boolean {
  for (let offset = 1; offset < length; offset++) if (text.charCodeAt(start + offset) !== marker.charCodeAt(offset)) return false;
  return true;
}

/** Whether `text[position..]` is all that is left of `marker` at the end of a cut-off body (a proper prefix of it). */
export function isMarkerRemnant(text: string, position: number, marker: string): boolean {
  const length = text.length - position;
  return length > 0 && length < marker.length && marker.startsWith(text.slice(position));
}
