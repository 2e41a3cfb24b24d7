/** Finds literal markers (tags, fences, special tokens) in streamed text, reporting a possible partial marker at the end. */
import { CharCodeSet } from './char-code-set.js';

export type MarkerEntry<T> = { marker: string; value: T };

export type MarkerHit<T> =
  | { type: 'found'; index: number; marker: string; value: T }
  /** `text[index..]` is a proper prefix of a marker: more text is needed to decide. */
  | { type: 'partial'; index: number }
  | { type: 'none' };

const none = { type: 'none' } as const;

export class MarkerMatcher<T> {
  readonly firstCodes: CharCodeSet;
  private readonly byFirstCode = new Map<number, MarkerEntry<T>[]>();

  constructor(entries: readonly MarkerEntry<T>[]) {
    for (const entry of entries) {
      if (entry.marker.length === 0) throw new Error('Empty marker');
      const code = entry.marker.charCodeAt(0);
      const list = this.byFirstCode.get(code) ?? [];
      if (list.some((existing) => existing.marker === entry.marker)) continue;
      list.push(entry);
      this.byFirstCode.set(code, list);
    }
    // Longest first, so that `<|tool_call|>` wins over a shorter marker sharing its start.
    for (const list of this.byFirstCode.values()) list.sort((left, right) => right.marker.length - left.marker.length);
    this.firstCodes = new CharCodeSet(this.byFirstCode.keys());
  }

  /**
   * The marker starting exactly at `index` (the longest one). When a longer marker could still
   * match once more text arrives, the answer is `partial`, so results never depend on chunking.
   */
  matchAt(text: string, index: number): MarkerHit<T> {
    const candidates = this.byFirstCode.get(text.charCodeAt(index));
    if (candidates === undefined) return none;
    const remaining = text.length - index;
    for (const entry of candidates) {
      if (entry.marker.length > remaining) {
        if (entry.marker.startsWith(text.slice(index))) return { type: 'partial', index };
      } else if (text.startsWith(entry.marker, index)) {
        return { type: 'found', index, marker: entry.marker, value: entry.value };
      }
    }
    return none;
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
      if (!firstCodes.has(code)) continue;
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
  for (let length = longest; length > 0; length--) {
    if (text.endsWith(marker.slice(0, length))) return text.length - length;
  }
  return text.length;
}

/** Whether `text[position..]` is all that is left of `marker` at the end of a cut-off body (a proper prefix of it). */
export function isMarkerRemnant(text: string, position: number, marker: string): boolean {
  const length = text.length - position;
  return length > 0 && length < marker.length && marker.startsWith(text.slice(position));
}
