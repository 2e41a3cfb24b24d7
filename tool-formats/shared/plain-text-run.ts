/** The reply parser's fast path over prose: how much of a chunk, read in text mode, is plain text as it stands. */
// Most chunks of prose hold no character a text marker (or a boundary) could start with: they are
// text without the state machine's steps. These tests decide it, and nothing else: the parser keeps
// the state.
import { isJsonOpenerCode, isSpaceCode } from './body-scanner.js';
import type { TextMarker } from './envelope-catalogue.js';
import type { MarkerMatcher } from './marker-matcher.js';

/** Llama's `{…}; {…}` separator: at a line's start it may lead a bare call. */
export const semicolonCode = 0x3b;

/**
 * How much of `text`, read in text mode, is plain text: nothing in it may start a text marker, but a
 * partial one at its end (then held), and each `stopCode` (the newline the text state stops at, -1
 * for none) is followed by a plain line start (or ends the chunk: the boundary then comes next). -1
 * when the state machine must read it. So most chunks of prose, the last of a line and the first of
 * the next included, take no steps.
 */
export function plainTextEnd(text: string, markers: MarkerMatcher<TextMarker>, stopCode: number): number {
  for (let index = 0; ;) {
    const stop = markers.firstMayStart(text, index, stopCode);
    if (stop === text.length) return stop;
    if (text.charCodeAt(stop) !== stopCode) return markers.partialCursor(text, stop) === undefined ? -1 : stop;
    index = stop + 1;
    if (index === text.length) return index;
    if (!isPlainLineStart(text, index, markers)) return -1;
  }
}

/**
 * Whether the boundary at `index` (a line's start, not the reply's) is plain text at once: a
 * character that is no space, no JSON opener or Llama's `;`, and starts no text marker.
 */
export function isPlainLineStart(text: string, index: number, markers: MarkerMatcher<TextMarker>): boolean {
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (isSpaceCode(code) || isJsonOpenerCode(code) || code === semicolonCode) return false;
  return markers.firstMayStart(text, index, -1) !== index;
}
