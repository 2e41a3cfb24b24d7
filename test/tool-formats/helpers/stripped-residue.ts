/** Test helpers for stripped-residue reading: the parser with and without it, and prose it must leave alone. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry, familySpecs } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, parseChunks, parseWhole, splitAt } from './chunking-invariance.js';

const registry = createToolFormatRegistry();
/** The same families with no residue reading: what the parsers did before it. */
const withoutResidue = createToolFormatRegistry(familySpecs.map((spec) => ({ ...spec, strippedResidue: undefined })));

export const strippedWarning = expect.objectContaining({ type: 'warning', code: 'special-tokens-stripped' }) as unknown as ParsedEvent;

/** Every split of `text` gives these events (merged). */
export function parseStripped(family: string, tools: readonly ToolDefinition[], text: string): ParsedEvent[] {
  return expectChunkingInvariant(() => registry.get(family)!.createParser([...tools]), text);
}

export const call = (name: string, callArguments: unknown, id?: string): ParsedEvent => ({
  type: 'tool-call',
  name,
  arguments: JSON.stringify(callArguments),
  ...(id === undefined ? {} : { id }),
});

/**
 * Registers a property test: prose built from `words` (tool names, channel names, braces, call-shaped
 * JSON, each a word between spaces) is read exactly as without residue reading, and gives no warning.
 */
export function testProseUntouched(family: string, tools: readonly ToolDefinition[], words: readonly string[]): void {
  it('reads prose mentioning the tools and the residue words as it did before, with no warning (fast-check)', () => {
    const separators = fc.constantFrom(' ', ', ', '. ', '\n', ': ', ' (', ') ');
    const prose = fc
      .array(fc.tuple(fc.constantFrom(...words, 'the', 'call', 'Weather', 'is', 'fine'), separators), { minLength: 1, maxLength: 14 })
      .map((pairs) => pairs.map(([word, separator]) => word + separator).join(''));
    fc.assert(
      fc.property(prose, fc.array(fc.nat({ max: 200 }), { maxLength: 6 }), (text, cuts) => {
        const create = () => registry.get(family)!.createParser([...tools]);
        const before = parseWhole(() => withoutResidue.get(family)!.createParser([...tools]), text);
        expect(parseWhole(create, text)).toEqual(before);
        expect(parseChunks(create, splitAt(text, cuts))).toEqual(before);
      }),
      { numRuns: Number(process.env['TOOL_FORMATS_FC_RUNS'] ?? 300) },
    );
  });
}
