/** The valgrind counts' reading and report (bench/instruction-counts.ts); running valgrind itself is the bench's job. */
import { describe, expect, it } from 'vitest';
import {
  estimatedCycles,
  readCallgrindTotals,
  renderInstructionCounts,
  type CacheEvents,
  type CountFigures,
} from '../../bench/instruction-counts.js';

// The head and tail of a callgrind output file written with --cache-sim=yes (valgrind 3.19's layout).
const callgrindOutput = [
  '# callgrind format',
  'version: 1',
  'creator: callgrind-3.19.0',
  'cmd:  /usr/bin/node --predictable --import tsx src/server.ts',
  'positions: line',
  'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw',
  'summary: 0 0 0 0 0 0 0 0 0',
  'fn=(1) main',
  '0 10 2 1 1 0 0 0 0 0',
  'totals: 1600000000 440000000 240000000 60000000 24000000 4800000 4000000 3000000 3400000',
].join('\n');

function figures(lane: 'native' | 'prompted', label: string, commit: string, perRequest: CacheEvents): CountFigures {
  return { tree: { label, root: `/tmp/${commit}`, commit }, lane, requests: 4000, perRequest };
}

describe('readCallgrindTotals', () => {
  it('names each total by its event, from the file callgrind writes', () => {
    const totals = readCallgrindTotals(callgrindOutput);
    expect(totals).toMatchObject({ Ir: 1_600_000_000, I1mr: 60_000_000, D1mw: 4_800_000, ILmr: 4_000_000, DLmw: 3_400_000 });
    expect(Object.keys(totals)).toHaveLength(9);
  });

  it('refuses a file without totals (callgrind did not finish writing it)', () => {
    expect(() => readCallgrindTotals(callgrindOutput.replace(/^totals:.*$/m, ''))).toThrow(/no events or totals/);
  });
});

describe('estimatedCycles', () => {
  it("weighs misses as cachegrind's manual does: 10 a first-level miss, 100 a last-level one", () => {
    const events: CacheEvents = { Ir: 400_000, I1mr: 15_000, D1mr: 6_000, D1mw: 1_000, ILmr: 1_000, DLmr: 800, DLmw: 900 };
    expect(estimatedCycles(events)).toBe(400_000 + 10 * 22_000 + 100 * 2_700);
  });
});

describe('renderInstructionCounts', () => {
  const mine: CacheEvents = { Ir: 400_000, I1mr: 15_000, D1mr: 6_000, D1mw: 1_000, ILmr: 1_000, DLmr: 800, DLmw: 900 };
  const theirs: CacheEvents = { Ir: 425_000, I1mr: 14_000, D1mr: 6_000, D1mw: 1_000, ILmr: 700, DLmr: 500, DLmw: 800 };

  it('prints each tree per lane and this tree ÷ the other', () => {
    const report = renderInstructionCounts([
      figures('native', 'this tree', 'aaaaaaa', mine),
      figures('native', '99d8c76', '99d8c76', theirs),
      figures('prompted', 'this tree', 'aaaaaaa', mine),
    ]);
    expect(report).toContain('### native lane, per request');
    expect(report).toContain('### prompted lane, per request');
    const native = report.split('### prompted')[0]!;
    expect(native).toMatch(/\| this tree \(aaaaaaa\)\s*\|\s*400,000\s*\|\s*22,000\s*\|\s*1,000\s*\|\s*1,700\s*\|/);
    // 400,000 ÷ 425,000 instructions, 1,000 ÷ 700 code misses, 1,700 ÷ 1,300 data misses.
    expect(native).toMatch(/\| this tree ÷ 99d8c76\s*\|\s*0\.94 ×\s*\|\s*1\.05 ×\s*\|\s*1\.43 ×\s*\|\s*1\.31 ×\s*\|/);
  });
});
