// The parser bench's family filter: which rows `--family` / PARSER_BENCH_FAMILIES select.
import { describe, expect, it } from 'vitest';
import { childRowRequest } from '../../bench/measure-in-child-process.js';
import { forksFrom, medianOfForks } from '../../bench/fork-median.js';
import { familyFilter, isolationFrom } from '../../bench/parsers.js';

describe('familyFilter', () => {
  it('reads --family with its value as the next argument', () => {
    expect(familyFilter(['--family', 'hermes, step3'], {})).toEqual(['hermes', 'step3']);
  });

  it('reads --family=a,b', () => {
    expect(familyFilter(['--family=kimi-k3,,xlam'], {})).toEqual(['kimi-k3', 'xlam']);
  });

  it('falls back to PARSER_BENCH_FAMILIES, and the flag wins over it', () => {
    expect(familyFilter([], { PARSER_BENCH_FAMILIES: 'cohere' })).toEqual(['cohere']);
    expect(familyFilter(['--family', 'jamba'], { PARSER_BENCH_FAMILIES: 'cohere' })).toEqual(['jamba']);
  });

  it('selects every row when nothing is given', () => {
    expect(familyFilter([], {})).toEqual([]);
  });
});

describe('isolationFrom', () => {
  it('measures each parser in its own process unless --one-process is given', () => {
    expect(isolationFrom([])).toBe('process-per-parser');
    expect(isolationFrom(['--family', 'hermes'])).toBe('process-per-parser');
    expect(isolationFrom(['--one-process'])).toBe('one-process');
  });
});

describe('childRowRequest', () => {
  it('names the row a child process is asked for, and nothing in the parent', () => {
    expect(childRowRequest(['--measure-one', 'step3'])).toBe('step3');
    expect(childRowRequest(['--family', 'step3'])).toBeUndefined();
  });
});

describe('forksFrom', () => {
  it('measures each row in three processes unless --forks N says otherwise', () => {
    expect(forksFrom([])).toBe(3);
    expect(forksFrom(['--forks', '5'])).toBe(5);
    expect(forksFrom(['--forks=1', '--family', 'hermes'])).toBe(1);
    expect(() => forksFrom(['--forks', '0'])).toThrow(/at least 1/);
    expect(() => forksFrom(['--forks=two'])).toThrow(/whole number/);
  });
});

describe('medianOfForks', () => {
  it('takes the median of each figure over the processes and shows the streamed range', () => {
    const speeds = [
      { wholeMegabytesPerSecond: 40, streamMegabytesPerSecond: 21.8, streamTenToOneRatio: 11, wholeTenToOneRatio: 20.6 },
      { wholeMegabytesPerSecond: 44, streamMegabytesPerSecond: 12.2, streamTenToOneRatio: 13, wholeTenToOneRatio: 15.5 },
      { wholeMegabytesPerSecond: 38, streamMegabytesPerSecond: 16, streamTenToOneRatio: 9, wholeTenToOneRatio: 14 },
    ];
    expect(medianOfForks(speeds)).toEqual({
      wholeMegabytesPerSecond: 40,
      streamMegabytesPerSecond: 16,
      streamTenToOneRatio: 11,
      wholeTenToOneRatio: 15.5,
      streamRange: '12.2–21.8',
    });
    expect(medianOfForks(speeds.slice(0, 2)).streamMegabytesPerSecond).toBe(17);
    expect(() => medianOfForks([])).toThrow(/at least one/);
  });
});
