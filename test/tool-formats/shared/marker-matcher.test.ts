import { describe, expect, it } from 'vitest';
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

describe('partialMarkerStart', () => {
  it('finds where a proper prefix of the marker starts at the end', () => {
    expect(partialMarkerStart('abc</thi', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('abc<', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('abc', 0, '</think>')).toBe(3);
    expect(partialMarkerStart('ab</think', 3, '</think>')).toBe(9);
  });
});
