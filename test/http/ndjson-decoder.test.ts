/** NdjsonDecoder: lines split anywhere, values out, one line capped; property-tested across chunk splits. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { NdjsonDecoder } from '../../src/http/ndjson-decoder.js';

const options = { maxEventBytes: 1024, provider: 'local' };

/** Decodes `bytes` cut at `cuts` (sorted, deduplicated offsets), then ends the body. */
function decodeSplit(bytes: Buffer, cuts: number[]): unknown[] {
  const decoder = new NdjsonDecoder(options);
  const values: unknown[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    values.push(...decoder.push(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...values, ...decoder.finish()];
}

const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('NdjsonDecoder', () => {
  it('gives the same values for any chunking of the same bytes, multi-byte characters included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(jsonValue, fc.string({ unit: 'grapheme' })), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        (values, crlf, rawCuts) => {
          const text = values.map((value) => JSON.stringify(value)).join(crlf ? '\r\n' : '\n') + '\n';
          const bytes = Buffer.from(text, 'utf8');
          const cuts = [...new Set(rawCuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          expect(decodeSplit(bytes, cuts)).toEqual(values);
        },
      ),
    );
  });

  it('skips blank lines and takes a last line that has no line end', () => {
    const decoder = new NdjsonDecoder(options);
    expect(decoder.push('{"a":1}\n\n  \n{"b"')).toEqual([{ a: 1 }]);
    expect(decoder.push(':2}')).toEqual([]);
    expect(decoder.finish()).toEqual([{ b: 2 }]);
  });

  it('fails with a 502 on a line that is not JSON, after the values before it', () => {
    const decoder = new NdjsonDecoder(options);
    expect(decoder.push('{"a":1}\nnot json\n')).toEqual([{ a: 1 }]);
    expect(() => decoder.push('{"b":2}\n')).toThrow(GatewayError);
    const alone = new NdjsonDecoder(options);
    expect(() => alone.push('{"cut":\n')).toThrow(expect.objectContaining({ status: 502, code: 'upstream_bad_response' }));
  });

  it('fails with the event cap once one line passes it, finished or not, without waiting for its end', () => {
    const finished = new NdjsonDecoder(options);
    expect(() => finished.push(`"${'x'.repeat(2000)}"\n`)).toThrow(
      expect.objectContaining({ status: 502, code: 'upstream_response_too_large' }),
    );
    const unfinished = new NdjsonDecoder(options);
    unfinished.push('"');
    expect(() => {
      for (let index = 0; index < 20; index++) unfinished.push('x'.repeat(100));
    }).toThrow(expect.objectContaining({ code: 'upstream_response_too_large' }));
  });
});
