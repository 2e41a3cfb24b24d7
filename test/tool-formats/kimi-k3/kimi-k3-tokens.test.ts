import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeAttribute, readAttributes, unescapeAttribute } from '../../../tool-formats/kimi-k3/kimi-k3-tokens.js';

describe('Kimi K3 attributes', () => {
  it('reads name="value" pairs, unescaping entities, the last of a repeated name winning', () => {
    const attributes = readAttributes(' tool="a &amp; b" key="say &quot;hi&quot;" tool="c"');
    expect([...attributes]).toEqual([
      ['tool', 'c'],
      ['key', 'say "hi"'],
    ]);
  });

  // The pattern is shared by every call: one header read must not change where the next one starts.
  it('reads the same header alike every time', () => {
    const header = ' tool="get_weather" index="1"';
    expect([...readAttributes(header)]).toEqual([...readAttributes(header)]);
    expect(readAttributes(header).get('index')).toBe('1');
  });

  // Read by hand for speed: it must read any header exactly as the pattern it replaced.
  it('reads every header as /([\\w-]+)="([^"]*)"/g does', () => {
    const pattern = /([\w-]+)="([^"]*)"/g;
    const expected = (header: string) => {
      const attributes = new Map<string, string>();
      for (const match of header.matchAll(pattern)) attributes.set(match[1] as string, unescapeAttribute(match[2] as string));
      return [...attributes];
    };
    const piece = fc.constantFrom('a', 'Z', '9', '_', '-', '=', '"', ' ', '="', 'é', '&amp;', '<|sep|>', 'tool="x"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const header = pieces.join('');
        expect([...readAttributes(header)]).toEqual(expected(header));
      }),
      { numRuns: 3000 },
    );
  });

  it('unescapes what the template escaped, with or without entities', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(unescapeAttribute(escapeAttribute(value))).toBe(value);
      }),
    );
    expect(unescapeAttribute('plain')).toBe('plain');
  });
});
