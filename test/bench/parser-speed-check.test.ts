/** The parser speed goals printed by bench/parsers.ts: linear within a bound, at least 15 MB/s streamed. */
import { describe, expect, it } from 'vitest';
import { parserCheckReport } from '../../bench/parser-speed-check.js';

const row = (family: string, streamMegabytesPerSecond: number, streamTenToOneRatio: number, wholeTenToOneRatio = 10) => ({
  family,
  streamMegabytesPerSecond,
  streamTenToOneRatio,
  wholeTenToOneRatio,
});

describe('parserCheckReport', () => {
  it('passes linear, fast parsers with one line each and a summary', () => {
    const report = parserCheckReport([row('hermes', 40, 10.2), row('glm', 15, 19.9)]);
    expect(report.pass).toBe(true);
    expect(report.lines).toHaveLength(3);
    expect(report.lines[0]).toMatch(/^PASS hermes: linear .* 40 MB\/s/);
    expect(report.lines[2]).toBe('parsers: PASS, all 2 linear and at least 15 MB/s streaming');
  });

  it('fails a parser that is slow or not linear, streamed or whole, and names it', () => {
    const report = parserCheckReport([
      row('slow', 14.9, 10),
      row('quadratic', 50, 98),
      row('whole-quadratic', 50, 10, 30),
      row('fine', 20, 10),
    ]);
    expect(report.pass).toBe(false);
    expect(report.lines.slice(0, 4).map((line) => line.split(':')[0])).toEqual([
      'FAIL slow',
      'FAIL quadratic',
      'FAIL whole-quadratic',
      'PASS fine',
    ]);
    expect(report.lines[1]).toContain('NOT linear');
    expect(report.lines.at(-1)).toBe('parsers: FAIL, 3 of 4 (slow, quadratic, whole-quadratic)');
  });
});
