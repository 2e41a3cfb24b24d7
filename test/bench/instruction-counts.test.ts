/** The valgrind counts' reading and report (bench/instruction-counts.ts); running valgrind itself is the bench's job. */
import { describe, expect, it } from 'vitest';
import {
  estimatedCycles,
  partOf,
  readCallgrindParts,
  renderInstructionCounts,
  type CacheEvents,
  type CountFigures,
} from '../../bench/instruction-counts.js';

// A callgrind output file written with --cache-sim=yes (valgrind 3.19's layout), cut down: names are
// compressed (given once with their id), and the cost line after calls= is the call's inclusive cost.
const callgrindOutput = [
  '# callgrind format',
  'version: 1',
  'creator: callgrind-3.19.0',
  'cmd:  /usr/bin/node --predictable --import tsx src/server.ts',
  'positions: line',
  'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw',
  'summary: 0',
  'ob=(1) /usr/bin/node',
  'fn=(1) Builtins_KeyedLoadIC_Megamorphic',
  '0 100 20 0 4 1 0 2 1 0',
  '+2 50 10 0 1',
  'cfn=(2) v8::internal::compiler::GraphReducer::ReduceTop()',
  'calls=3 0',
  '0 9000 0 0 90 0 0 9 0 0',
  'fn=(2)',
  '0 9000 0 0 90 0 0 9 0 0',
  'fn=(3) v8::internal::JsonParser<unsigned char>::ScanJsonString(bool)',
  '* 400 40 0 8 2 0 1 0 0',
  'fn=(4) v8::internal::Scavenger::ScavengePage(v8::internal::MemoryChunk*)',
  '0 700 70 70 7 7 7 0 3 3',
  'fn=(1)',
  '-1 50 0 0 1 0 0 0 0 0',
  'totals: 10300 140 70 111 10 7 12 4 3',
].join('\n');

function figures(kind: string, label: string, commit: string, perRequest: CacheEvents): CountFigures {
  return {
    tree: { label, root: `/tmp/${commit}`, commit },
    kind: { name: kind, unit: kind.endsWith('streamed') ? 'chunk' : 'request' },
    perRequest,
    compilingInstructions: 50_000,
    collectingInstructions: 2_000,
  };
}

describe('readCallgrindParts', () => {
  it("sums each function's own events into work, compiling and collecting, skipping the calls' inclusive costs", () => {
    const parts = readCallgrindParts(callgrindOutput);
    // The megamorphic load (100 + 50 + 50 after fn=(1) came back) and JSON.parse's scanner are work.
    expect(parts.work).toMatchObject({ Ir: 600, I1mr: 14, ILmr: 3, DLmr: 1 });
    // Counted once, at the compiler's own fn= line, not again as the cost of the call to it.
    expect(parts.compiling).toMatchObject({ Ir: 9000, I1mr: 90, ILmr: 9 });
    expect(parts.collecting).toMatchObject({ Ir: 700, DLmr: 3, DLmw: 3 });
    expect(Object.keys(parts.work)).toHaveLength(9);
  });

  it('refuses a file without totals (callgrind did not finish writing it)', () => {
    expect(() => readCallgrindParts(callgrindOutput.replace(/^totals:.*$/m, ''))).toThrow(/no events or totals/);
  });
});

describe('partOf', () => {
  it("tells V8's compilers and parser, and its collector, from the work they are named like", () => {
    expect(partOf('v8::internal::maglev::MaglevGraphBuilder::VisitLdaZero()')).toBe('compiling');
    expect(partOf('v8::internal::ParserBase<v8::internal::Parser>::ParseStatementListItem()')).toBe('compiling');
    expect(partOf('v8::internal::MarkCompactCollector::CollectGarbage()')).toBe('collecting');
    expect(partOf('v8::internal::JsonParser<unsigned char>::ParseJsonValue<false>()')).toBe('work');
    expect(partOf('node::(anonymous namespace)::Parser::on_headers_complete()')).toBe('work');
    expect(partOf('0x000000000d31a800')).toBe('work');
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

  it('prints each tree per kind and this tree ÷ the other', () => {
    const report = renderInstructionCounts([
      figures('native lane', 'this tree', 'aaaaaaa', mine),
      figures('native lane', '99d8c76', '99d8c76', theirs),
      figures('prompted lane', 'this tree', 'aaaaaaa', mine),
      figures('native lane, streamed', 'this tree', 'aaaaaaa', mine),
    ]);
    expect(report).toContain('### native lane, per request');
    expect(report).toContain('### prompted lane, per request');
    expect(report).toContain('### native lane, streamed, per chunk');
    const native = report.split('### prompted')[0]!;
    expect(native).toMatch(
      /\| this tree \(aaaaaaa\)\s*\|\s*400,000\s*\|\s*22,000\s*\|\s*1,000\s*\|\s*1,700\s*\|[^|]+\|\s*50,000\s*\|\s*2,000\s*\|/,
    );
    // 400,000 ÷ 425,000 instructions, 1,000 ÷ 700 code misses, 1,700 ÷ 1,300 data misses.
    expect(native).toMatch(/\| this tree ÷ 99d8c76\s*\|\s*0\.94 ×\s*\|\s*1\.05 ×\s*\|\s*1\.43 ×\s*\|\s*1\.31 ×\s*\|/);
  });
});
