/** The freeform-input unwrapper: streamed deltas always add up to the final input, for any chunking. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CustomInputDecoder, unwrapCustomInput } from '../../../routes/responses/custom-input-decoder.js';

function decodeInPieces(argumentsText: string, cuts: number[]): { deltas: string[]; input: string } {
  const decoder = new CustomInputDecoder();
  const deltas: string[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((left, right) => left - right)) {
    const piece = decoder.push(argumentsText.slice(start, cut));
    if (piece) deltas.push(piece);
    start = cut;
  }
  const last = decoder.push(argumentsText.slice(start));
  if (last) deltas.push(last);
  const { input, rest } = decoder.finish(argumentsText);
  if (rest) deltas.push(rest);
  return { deltas, input };
}

const isHighSurrogate = (text: string) => /[\uD800-\uDBFF]$/.test(text);

describe('CustomInputDecoder', () => {
  it('streams the unwrapped text of {"input": …} for any split of the arguments', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), fc.array(fc.nat()), (input, asciiOnly, rawCuts) => {
        const argumentsText = asciiOnly
          ? JSON.stringify({ input }).replace(/[\u007f-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
          : JSON.stringify({ input });
        const cuts = rawCuts.map((cut) => cut % (argumentsText.length + 1));
        const { deltas, input: decoded } = decodeInPieces(argumentsText, cuts);
        expect(decoded).toBe(input);
        expect(deltas.join('')).toBe(input);
        for (const delta of deltas.slice(0, -1)) expect(isHighSurrogate(delta)).toBe(false);
      }),
    );
  });

  it('streams as the text arrives when the arguments open with "input"', () => {
    const decoder = new CustomInputDecoder();
    expect(decoder.push('{ "inp')).toBe('');
    expect(decoder.push('ut" : "*** Be')).toBe('*** Be');
    expect(decoder.push('gin\\')).toBe('gin');
    expect(decoder.push('n\\u00')).toBe('\n');
    expect(decoder.push('e9"}')).toBe('é');
    expect(decoder.finish('{ "input" : "*** Begin\\n\\u00e9"}')).toEqual({ input: '*** Begin\né', rest: '' });
  });

  it('decodes other shapes whole at the end', () => {
    const decoder = new CustomInputDecoder();
    expect(decoder.push('{"patch": "x')).toBe('');
    expect(decoder.push('y"}')).toBe('');
    expect(decoder.finish('{"patch": "xy"}')).toEqual({ input: 'xy', rest: 'xy' });
  });

  it('unwraps the input, a lone string value, a JSON string, or keeps raw text', () => {
    expect(unwrapCustomInput('{"input":"a"}')).toBe('a');
    expect(unwrapCustomInput('{"text":"b"}')).toBe('b');
    expect(unwrapCustomInput('"c"')).toBe('c');
    expect(unwrapCustomInput('{}')).toBe('');
    expect(unwrapCustomInput('*** Begin Patch')).toBe('*** Begin Patch');
    expect(unwrapCustomInput('{"a":"1","b":"2"}')).toBe('{"a":"1","b":"2"}');
  });
});
