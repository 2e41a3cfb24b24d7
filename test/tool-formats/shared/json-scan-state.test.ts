import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CharCodeSet } from '../../../tool-formats/shared/char-code-set.js';
import { advanceJsonScan, JsonScanState } from '../../../tool-formats/shared/json-scan-state.js';

/** The scan one character at a time, as `JsonScanState.step` defines it: what the fast scan must match. */
function referenceScan(state: JsonScanState, text: string, from: number, stops: CharCodeSet | undefined, stopAfterValue: boolean): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (!state.inString && stops !== undefined && stops.has(code)) return index;
    const completed = state.completedValues;
    state.step(code);
    if (stopAfterValue && state.completedValues > completed) return index + 1;
  }
  return text.length;
}

const snapshot = (state: JsonScanState) => ({
  depth: state.depth,
  quote: state.quote,
  escaped: state.escaped,
  completedValues: state.completedValues,
});

// Long runs of string text (past the length where the scan jumps), backslash runs and both quotes.
const piece = fc.constantFrom(
  '"',
  "'",
  '\\',
  '\n',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '<',
  'a',
  ' ',
  'text '.repeat(8),
  '\\"',
  "\\'",
  '\\\\\\"',
  '\\\\\\\\',
);
const texts = fc.array(piece, { maxLength: 60 }).map((pieces) => pieces.join(''));
const stops = new CharCodeSet(['<'.charCodeAt(0)]);

describe('advanceJsonScan', () => {
  it('stops where the character-by-character scan stops, in the same state', () => {
    fc.assert(
      fc.property(texts, fc.boolean(), fc.boolean(), (text, withStops, stopAfterValue) => {
        const fast = new JsonScanState();
        const reference = new JsonScanState();
        const stopSet = withStops ? stops : undefined;
        let fastIndex = 0;
        let referenceIndex = 0;
        // Resumed after each stop, as the scanners do, so every part of the text is compared.
        while (fastIndex < text.length) {
          const started = fastIndex;
          fastIndex = advanceJsonScan(fast, text, fastIndex, stopSet, stopAfterValue);
          referenceIndex = referenceScan(reference, text, referenceIndex, stopSet, stopAfterValue);
          expect(fastIndex).toBe(referenceIndex);
          expect(snapshot(fast)).toEqual(snapshot(reference));
          // Stopped before a stop character: step over it, as a scanner does when no marker starts there.
          if (fastIndex < text.length && (!stopAfterValue || fastIndex === started)) {
            fast.step(text.charCodeAt(fastIndex));
            reference.step(text.charCodeAt(referenceIndex));
            fastIndex++;
            referenceIndex++;
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('ends in the same state whether the text comes whole or in chunks', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const whole = new JsonScanState();
        advanceJsonScan(whole, text, 0, undefined, false);
        const chunked = new JsonScanState();
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
        let start = 0;
        for (const point of [...points, text.length]) {
          advanceJsonScan(chunked, text.slice(start, point), 0, undefined, false);
          start = point;
        }
        expect(snapshot(chunked)).toEqual(snapshot(whole));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads an escaped quote at the end of a long string as string text', () => {
    const state = new JsonScanState();
    const text = `{"content": "${'x'.repeat(40)}\\"`;
    expect(advanceJsonScan(state, text, 0, undefined, false)).toBe(text.length);
    expect(snapshot(state)).toEqual({ depth: 1, quote: 0x22, escaped: false, completedValues: 0 });
    advanceJsonScan(state, `${'y'.repeat(30)}\\`, 0, undefined, false);
    expect(state.escaped).toBe(true);
    advanceJsonScan(state, `"${'z'.repeat(30)}"}`, 0, undefined, false);
    expect(snapshot(state)).toEqual({ depth: 0, quote: 0, escaped: false, completedValues: 1 });
  });
});
