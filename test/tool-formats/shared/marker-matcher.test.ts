import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MarkerMatcher, partialMarkerStart } from '../../../tool-formats/shared/marker-matcher.js';

const matcher = new MarkerMatcher([
  { marker: '<tool_call>', value: 'hermes' },
  { marker: '<|tool_call|>', value: 'pipes' },
  { marker: '<|tool_call>', value: 'gemma' },
  { marker: '```json', value: 'fence' },
]);

describe('MarkerMatcher', () => {
  it('finds the first marker, preferring the longest at one position', () => {
    expect(matcher.find('a < b <|tool_call|> c', 0)).toEqual({ type: 'found', index: 6, marker: '<|tool_call|>', value: 'pipes' });
    expect(matcher.find('x <|tool_call>{', 0)).toMatchObject({ type: 'found', marker: '<|tool_call>', value: 'gemma' });
  });

  it('reports a possible partial marker at the end only', () => {
    expect(matcher.find('text <tool_c', 0)).toEqual({ type: 'partial', index: 5 });
    expect(matcher.find('text <|tool_call', 0)).toEqual({ type: 'partial', index: 5 });
    expect(matcher.find('text ``', 0)).toEqual({ type: 'partial', index: 5 });
    expect(matcher.find('<b>bold</b> <tool> <| 4', 0)).toEqual({ type: 'none' });
  });

  it('waits when a longer marker could still match at a position where a shorter one already does', () => {
    const overlapping = new MarkerMatcher([
      { marker: '<a>', value: 1 },
      { marker: '<a>>', value: 2 },
    ]);
    expect(overlapping.matchAt('<a>', 0)).toEqual({ type: 'partial', index: 0 });
    expect(overlapping.matchAt('<a>x', 0)).toMatchObject({ type: 'found', value: 1 });
    expect(overlapping.matchAt('<a>>', 0)).toMatchObject({ type: 'found', value: 2 });
  });

  it('starts searching at the given position', () => {
    expect(matcher.find('<tool_call><tool_call>', 1)).toMatchObject({ type: 'found', index: 11 });
  });
});

describe('MarkerMatcher.continuePartial', () => {
  const overlapping = new MarkerMatcher([
    { marker: '<a>', value: 1 },
    { marker: '<a>>', value: 2 },
    { marker: '<ab', value: 3 },
    { marker: '<|tool_call|>', value: 4 },
  ]);

  it('stays partial exactly while matchAt from the marker start would answer partial again', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('<', '<a', '<a>', '<|', '<|tool'),
        fc.array(fc.string({ unit: fc.constantFrom('<', 'a', 'b', '>', '|', 't', 'o', 'l', '_', 'c', 'x') }), { maxLength: 4 }),
        (held, chunks) => {
          fc.pre(overlapping.matchAt(held, 0).type === 'partial');
          let cursor = overlapping.partialCursor(held, 0);
          let text = held;
          for (const chunk of chunks) {
            if (cursor === undefined) return;
            cursor = overlapping.continuePartial(cursor, chunk);
            text += chunk;
            expect(cursor !== undefined).toBe(overlapping.matchAt(text, 0).type === 'partial');
          }
        },
      ),
    );
  });

  it('places a cursor exactly where matchAt answers partial', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', 'a', 'b', '>', '|', 't', 'o', 'x') }), fc.nat(8), (text, index) => {
        expect(overlapping.partialCursor(text, index) !== undefined).toBe(
          index < text.length && overlapping.matchAt(text, index).type === 'partial',
        );
      }),
    );
  });

  it('walks from where the held text stopped, not from the start of the text', () => {
    const cursor = overlapping.partialCursor('text <|to', 5);
    if (cursor === undefined) throw new Error('"<|to" is a partial marker');
    const next = overlapping.continuePartial(cursor, 'ol_c');
    expect(next).toBeDefined();
    expect(overlapping.continuePartial(next as NonNullable<typeof next>, 'all|>')).toBeUndefined();
    expect(overlapping.continuePartial(cursor, 'x')).toBeUndefined();
  });
});

describe('partialMarkerStart', () => {
  it('finds where a proper prefix of the marker starts at the end', () => {
    expect(partialMarkerStart('abc</thi', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('abc<', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('abc', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('ab</think', 3, '</think>')).toBe(9);
  });
});

/** The matcher's rules stated directly: longest marker first; a longer one that could still match makes it partial. */
function referenceMatchAt(
  markers: readonly string[],
  text: string,
  index: number,
): { type: 'found'; marker: string } | { type: 'partial' } | { type: 'none' } {
  const rest = text.slice(index);
  if (markers.some((marker) => marker.length > rest.length && marker.startsWith(rest) && rest.length > 0)) return { type: 'partial' };
  const found = markers.filter((marker) => rest.startsWith(marker)).sort((left, right) => right.length - left.length)[0];
  return found === undefined ? { type: 'none' } : { type: 'found', marker: found };
}

describe('MarkerMatcher against its rules', () => {
  // A small alphabet, so that markers share prefixes and texts run into them often.
  const piece = fc.string({ unit: fc.constantFrom('<', '|', 'a', 'b', '>'), minLength: 1, maxLength: 5 });

  it('matches at a position as the rules say, for markers sharing prefixes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(piece, { minLength: 1, maxLength: 6 }),
        fc.string({ unit: fc.constantFrom('<', '|', 'a', 'b', '>', 'x'), maxLength: 8 }),
        (markers, text) => {
          const matcher = new MarkerMatcher(markers.map((marker) => ({ marker, value: marker })));
          for (let index = 0; index < text.length; index++) {
            const hit = matcher.matchAt(text, index);
            const expected = referenceMatchAt(markers, text, index);
            expect(hit.type).toBe(expected.type);
            if (hit.type === 'found' && expected.type === 'found')
              expect(hit).toEqual({ type: 'found', index, marker: expected.marker, value: expected.marker });
            if (hit.type === 'partial') expect(hit).toEqual({ type: 'partial', index });
          }
        },
      ),
    );
  });

  it('finds what matching at every position finds, and says a chunk may hold a marker whenever one (or a prefix at its end) starts in it, and how much of it is unmarked', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(piece, { minLength: 1, maxLength: 6 }),
        fc.string({ unit: fc.constantFrom('<', '|', 'a', 'b', '>', 'x'), maxLength: 8 }),
        (markers, text) => {
          const matcher = new MarkerMatcher(markers.map((marker) => ({ marker, value: marker })));
          const first = [...text].findIndex((_, index) => referenceMatchAt(markers, text, index).type !== 'none');
          const found = matcher.find(text, 0);
          expect(found.type === 'none' ? -1 : found.index).toBe(first);
          // Never a false "no": the chunk fast paths skip the full scan on it.
          if (first >= 0) expect(matcher.firstMayStart(text, 0, -1)).toBeLessThanOrEqual(first);
          // What a fast path may take: all, up to the partial marker at the end, or nothing at a marker.
          expect(matcher.unmarkedLength(text, 0)).toBe(found.type === 'none' ? text.length : found.type === 'partial' ? found.index : -1);
        },
      ),
    );
  });

  it("rules a chunk out by the character after a marker's first one, and never at the chunk's end", () => {
    const markers = new MarkerMatcher([
      { marker: 'functools[', value: 1 },
      { marker: '<|tool_call|>', value: 2 },
    ]);
    const mayHoldMarker = (matcher: MarkerMatcher<number>, text: string) => matcher.firstMayStart(text, 0, -1) < text.length;
    expect(mayHoldMarker(markers, 'if a < b, of it')).toBe(false);
    expect(mayHoldMarker(markers, 'then f')).toBe(true);
    expect(mayHoldMarker(markers, 'x <|y')).toBe(true);
    expect(mayHoldMarker(markers, 'a fun')).toBe(true);
    expect(mayHoldMarker(new MarkerMatcher([{ marker: '>', value: 1 }]), 'a>b')).toBe(true);
  });

  it('keeps the first registration of a marker given twice', () => {
    const twice = new MarkerMatcher([
      { marker: '<a>', value: 'first' },
      { marker: '<a>', value: 'second' },
    ]);
    expect(twice.matchAt('<a>', 0)).toEqual({ type: 'found', index: 0, marker: '<a>', value: 'first' });
  });
});

describe('partialMarkerStart against its rule', () => {
  it('is where the longest proper prefix of the marker that ends the text begins', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '/', 't', 'h', '>', 'x'), maxLength: 12 }), fc.nat(12), (text, from) => {
        const marker = '</th>';
        let expected = text.length;
        for (let length = Math.min(marker.length - 1, text.length - from); length > 0; length--) {
          if (text.endsWith(marker.slice(0, length))) {
            expected = text.length - length;
            break;
          }
        }
        expect(partialMarkerStart(text, Math.min(from, text.length), marker)).toBe(expected);
      }),
    );
  });
});
