// The host reference printed beside the parser rows: its pass-through parser and how its line reads.
import { describe, expect, it } from 'vitest';
import { hostReferenceLine, measureJsonParse, PassThroughParser } from '../../bench/host-reference.js';

describe('PassThroughParser', () => {
  it('hands each chunk back as one text event and nothing at the end', () => {
    const parser = new PassThroughParser();
    expect(parser.push('<tool_call>')).toEqual([{ type: 'text', text: '<tool_call>' }]);
    expect(parser.finish()).toEqual([]);
  });
});

describe('measureJsonParse', () => {
  it('divides the best batch time by the parses in a batch, after warming up', () => {
    const runs: number[] = [];
    // 25 ms for a batch of 100,000 parses is 250 ns each.
    const nanoseconds = measureJsonParse((count, run) => {
      runs.push(count);
      run();
      return 25;
    });
    expect(runs).toEqual([3, 10]);
    expect(nanoseconds).toBe(250);
  });
});

describe('hostReferenceLine', () => {
  it('says what a push may cost at the goal beside what the pass-through parser costs', () => {
    const line = hostReferenceLine({ passThroughNanosecondsPerPush: 35, jsonParseNanoseconds: 1400 }, 15, 4);
    expect(line).toBe(
      'host reference: a pass-through parser takes 35 ns per 4-byte push (15 MB/s allows 267 ns); ' +
        'JSON.parse of a 66-character call takes 1400 ns',
    );
  });
});
