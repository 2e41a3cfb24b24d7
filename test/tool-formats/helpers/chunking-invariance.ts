/** Reusable chunking-invariance harness: any split of a reply must give the merged events of the whole. */
// Phase-2 families call `testChunkingInvariance`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolCallParser } from '../../../src/core/index.js';

export type ParserFactory = () => ToolCallParser;

/** Merges adjacent text events and adjacent reasoning events (how consumers see them). */
export function mergeEvents(events: readonly ParsedEvent[]): ParsedEvent[] {
  const merged: ParsedEvent[] = [];
  for (const event of events) {
    const last = merged[merged.length - 1];
    if ((event.type === 'text' || event.type === 'reasoning') && last?.type === event.type) {
      merged[merged.length - 1] = { ...last, text: last.text + event.text };
    } else if (!((event.type === 'text' || event.type === 'reasoning') && event.text === '')) {
      merged.push({ ...event });
    }
  }
  return merged;
}

/** `push(whole)` then `finish()`, merged: the non-streaming path. */
export function parseWhole(factory: ParserFactory, text: string): ParsedEvent[] {
  const parser = factory();
  return mergeEvents([...parser.push(text), ...parser.finish()]);
}

export function parseChunks(factory: ParserFactory, chunks: readonly string[]): ParsedEvent[] {
  const parser = factory();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return mergeEvents([...events, ...parser.finish()]);
}

/** Splits at the given cut positions (any order, duplicates and out-of-range values ignored). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => Math.max(0, Math.min(text.length, cut))))].sort((left, right) => left - right);
  const chunks: string[] = [];
  let previous = 0;
  for (const position of [...positions, text.length]) {
    if (position > previous) chunks.push(text.slice(previous, position));
    previous = position;
  }
  return chunks;
}

export function splitEvery(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}

/** Checks 1-character chunks, every single cut point (short texts) and a few fixed chunk sizes. */
export function expectChunkingInvariant(factory: ParserFactory, text: string): ParsedEvent[] {
  const whole = parseWhole(factory, text);
  expect(parseChunks(factory, splitEvery(text, 1)), 'one character per chunk').toEqual(whole);
  for (const size of [2, 3, 4, 7, 16]) expect(parseChunks(factory, splitEvery(text, size)), `chunks of ${size}`).toEqual(whole);
  if (text.length <= 400) {
    for (let cut = 1; cut < text.length; cut++) expect(parseChunks(factory, splitAt(text, [cut])), `cut at ${cut}`).toEqual(whole);
  }
  return whole;
}

/** Prose that stresses the hold-back rules: `<`, `|`, backticks, braces, brackets and unicode. */
export const trickyProse = [
  'If a < b and <b>bold</b> text, use <tool> carefully; 3 <| 4.',
  'Here is `code` and ``` a fence ``` and ```python\nprint(1)\n```\n',
  'naïve café ☕ 日本語 🎉👩‍👩‍👧 résumé',
  '{not json} [1] (x) </ <| |> <<>> ``` ',
  '\n\n',
  ' ; ',
  '<think',
  '</think>',
  '<tool_',
  '{"name": "Alice", "age": 31}',
  '[get(',
];

/** Replies made of family fragments, tricky prose and random unicode strings. */
export function replyArbitrary(fragments: readonly string[]): fc.Arbitrary<string> {
  const pieces = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fragments) },
    { weight: 2, arbitrary: fc.constantFrom(...trickyProse) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom('<', '>', '|', '/', '{', '}', '[', ']', '"', "'", '`', '\\', '\n', ' ', ';', ':', ',', 'a'),
        maxLength: 10,
      }),
    },
  );
  return fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join(''));
}

export type ChunkingSuite = {
  /** Suite title, e.g. the family id. */
  name: string;
  createParser: ParserFactory;
  /** Complete, realistic replies checked exhaustively (every cut point when short). */
  samples: readonly string[];
  /** Markup pieces of the family (markers, whole calls, broken calls) mixed into random replies. */
  fragments: readonly string[];
  numRuns?: number;
};

/** Registers the chunking-invariance tests for one parser. */
export function testChunkingInvariance(suite: ChunkingSuite): void {
  describe(`${suite.name}: chunking invariance`, () => {
    it.each(suite.samples.map((sample) => [sample]))('gives the same events for every split of %j', (sample) => {
      expectChunkingInvariant(suite.createParser, sample);
    });

    it('gives the same events for random replies and random splits (fast-check)', () => {
      fc.assert(
        fc.property(
          replyArbitrary([...suite.fragments, ...suite.samples]),
          fc.array(fc.nat({ max: 400 }), { maxLength: 12 }),
          (text, cuts) => {
            const whole = parseWhole(suite.createParser, text);
            expect(parseChunks(suite.createParser, splitAt(text, cuts))).toEqual(whole);
            expect(parseChunks(suite.createParser, splitEvery(text, 1))).toEqual(whole);
          },
        ),
        // TOOL_FORMATS_FC_RUNS raises the count for a soak run.
        { numRuns: Number(process.env['TOOL_FORMATS_FC_RUNS'] ?? suite.numRuns ?? 300) },
      );
    });

    it('gives the same events for unicode text split inside surrogate pairs', () => {
      fc.assert(
        fc.property(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.constantFrom(...suite.fragments),
          fc.nat({ max: 60 }),
          (noise, fragment, cut) => {
            const text = noise + fragment + noise;
            expect(parseChunks(suite.createParser, splitAt(text, [cut]))).toEqual(parseWhole(suite.createParser, text));
          },
        ),
        { numRuns: 100 },
      );
    });
  });
}
