import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextPieces } from '../../../tool-formats/shared/text-pieces.js';

describe('TextPieces', () => {
  it('joins what was added, in order, across batches and repeated joins', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 5 }), { maxLength: 1200 }), fc.nat(1200), (pieces, joinAt) => {
        const collected = new TextPieces();
        pieces.forEach((piece, index) => {
          collected.add(piece);
          if (index === joinAt) expect(collected.join()).toBe(pieces.slice(0, index + 1).join(''));
        });
        expect(collected.join()).toBe(pieces.join(''));
        expect(collected.length).toBe(pieces.join('').length);
      }),
      { numRuns: 50 },
    );
  });

  it('is empty before anything is added', () => {
    expect(new TextPieces().join()).toBe('');
  });

  it('collects the next text from empty after clear, whatever it held (reused for call after call)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ maxLength: 5 }), { maxLength: 700 }), { maxLength: 4 }), (texts) => {
        const collected = new TextPieces();
        for (const pieces of texts) {
          collected.clear();
          for (const piece of pieces) collected.add(piece);
          expect(collected.join()).toBe(pieces.join(''));
          expect(collected.length).toBe(pieces.join('').length);
        }
      }),
      { numRuns: 50 },
    );
  });
});
