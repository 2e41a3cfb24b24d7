/** Finds literal markers (tags, fences, special tokens) in streamed text, reporting a possible partial marker at the end. */
import { CharCodeSet } from './char-code-set.js';

export type MarkerEntry<T> = { marker: string; value: T };

export type MarkerHit<T> =
  | { type: 'found'; index: number; marker: string; value: T }
  /** `text[index..]` is a proper prefix of a marker: more text is needed to decide. */
  | { type: 'partial'; index: number }
  | { type: 'none' };

const none = { type: 'none' } as const;

declare const cursorBrand: unique symbol;
/**
 * Where a partial match stands once the text ran out: the trie node the held text led to. Opaque to
 * callers, and no allocation: the node itself, branded.
 */
export type MarkerCursor = { readonly [cursorBrand]: true };

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
/** Slots of the table of first characters, keyed by a code's low byte. */
const firstSlots = 256;

function pairKey(first: number, second: number): number {
  return (first * 31 + second) & (pairSlots - 1);
}

/**
 * The scanning loops' view of the markers, as two flat tables: a code's low byte says whether a marker
 * may start with it (non-ASCII codes share slots, which only costs a false "may"), and the first two
 * characters, hashed, whether a marker may start here given the next character. Prose is full of
 * first characters (`<` of a comparison, `[` of a citation), and the pair rules most out without
 * walking the trie. A marker one character long fills every slot, so it is never ruled out.
 */
type StartTables = { first: Uint8Array; pairs: Uint8Array };

function buildStartTables(entries: readonly MarkerEntry<unknown>[]): StartTables {
  const first = new Uint8Array(firstSlots);
  const pairs = new Uint8Array(pairSlots);
  for (const { marker } of entries) {
    const code = marker.charCodeAt(0);
    first[code & (firstSlots - 1)] = 1;
    if (marker.length === 1) pairs.fill(1);
    else pairs[pairKey(code, marker.charCodeAt(1))] = 1;
  }
  return { first, pairs };
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
  /** See `buildStartTables`; built on first use too. */
  private tables: StartTables | undefined;

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
   * The cursor at the end of `text` for `continuePartial` when `text[index..]` is a partial marker
   * (`matchAt` would answer `partial` there); undefined when it is not. One walk both decides and places.
   */
  partialCursor(text: string, index: number): MarkerCursor | undefined {
    if (index >= text.length) return undefined;
    this.trie ??= buildTrie(this.entries);
    let node: TrieNode<T> | undefined = this.trie;
    for (let position = index; position < text.length && node !== undefined; position++) node = childOf(node, text.charCodeAt(position));
    return node === undefined || node.codes.length === 0 ? undefined : (node as unknown as MarkerCursor);
  }

  /**
   * The partial marker at `cursor` followed by `text`: the cursor at the end of `text` while every
   * character followed the trie and a longer marker may still come (so `matchAt` from the marker's start
   * would answer `partial` again), or undefined once the match is decided either way. This lets a caller
   * holding a partial marker read each new chunk once instead of matching the whole held text again.
   */
  continuePartial(cursor: MarkerCursor, text: string): MarkerCursor | undefined {
    let node = cursor as unknown as TrieNode<T>;
    for (let position = 0; position < text.length; position++) {
      const child = childOf(node, text.charCodeAt(position));
      if (child === undefined || child.codes.length === 0) return undefined;
      node = child;
    }
    return node as unknown as MarkerCursor;
  }

  /**
   * The first index at or after `from` where a marker (or at the very end a proper prefix of one) may
   * start, or where `stopCode` is; `text.length` when there is none.
   */
  firstMayStart(text: string, from: number, stopCode: number): number {
    this.tables ??= buildStartTables(this.entries);
    const { first, pairs } = this.tables;
    const last = text.length - 1;
    for (let index = from; index < last; index++) {
      const code = text.charCodeAt(index);
      if (code === stopCode) return index;
      if (first[code & (firstSlots - 1)] === 1 && pairs[pairKey(code, text.charCodeAt(index + 1))] === 1) return index;
    }
    if (last >= from) {
      const code = text.charCodeAt(last);
      if (code === stopCode || first[code & (firstSlots - 1)] === 1) return last;
    }
    return text.length;
  }

  /**
   * How much of `text` from `from` a reader may take while it holds no marker: all of it (`text.length`),
   * up to a partial marker at its end (its index: the rest is held), or -1 where a marker is.
   */
  unmarkedLength(text: string, from: number): number {
    const hit = this.find(text, from);
    return hit.type === 'none' ? text.length : hit.type === 'partial' ? hit.index : -1;
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
    for (let index = this.firstMayStart(text, from, stopCode); index < text.length; index = this.firstMayStart(text, index + 1, stopCode)) {
      if (text.charCodeAt(index) === stopCode) return { type: 'stop', index };
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
