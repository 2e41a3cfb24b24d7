/** SseDecoder: the same events for every split of the same bytes (CRLF and UTF-8 characters cut anywhere), each byte scanned once, and the event cap. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { SseDecoder, type ServerSentEvent, type SseDecoderOptions } from '../../src/http/sse-decoder.js';

/** The WHATWG rules written the simplest way, over the whole text at once. */
function referenceEvents(text: string): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  let data: string[] = [];
  let name: string | undefined;
  let id: string | undefined;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (const line of [...body.split(/\r\n|\r|\n/), '']) {
    if (line === '') {
      if (data.length > 0)
        events.push({ data: data.join('\n'), ...(name !== undefined ? { event: name } : {}), ...(id !== undefined ? { id } : {}) });
      data = [];
      name = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') name = value;
    else if (field === 'id') id = value;
  }
  return events;
}

function decodeInPieces(bytes: Buffer, cuts: number[], options?: SseDecoderOptions): { events: ServerSentEvent[]; scanned: number } {
  const decoder = new SseDecoder(options);
  const events: ServerSentEvent[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)) {
    events.push(...decoder.push(bytes.subarray(start, cut)));
    start = cut;
  }
  events.push(...decoder.push(bytes.subarray(start)), ...decoder.finish());
  return { events, scanned: decoder.scannedBytes };
}

/** Text without line ends: ASCII, accents, CJK, emoji (four UTF-8 bytes, two UTF-16 units). */
const lineText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', ' ', ':', '{', '"', 'é', '中', '🌍', '\u2028'),
    fc.string({ unit: 'binary', maxLength: 1 }).filter((c) => c !== '\r' && c !== '\n'),
  ),
  maxLength: 12,
});
const line = fc.oneof(
  lineText.map((text) => `data: ${text}`),
  lineText.map((text) => `data:${text}`),
  fc.constant('data'),
  lineText.map((text) => `event: ${text}`),
  lineText.map((text) => `id: ${text}`),
  lineText.map((text) => `: ${text}`),
  lineText,
  fc.constant(''),
);
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
const stream = fc.tuple(fc.boolean(), fc.array(fc.tuple(line, lineEnd), { maxLength: 20 }), fc.boolean()).map(([bom, lines, cutLast]) => {
  const text = (bom ? '\uFEFF' : '') + lines.map(([content, end]) => content + end).join('');
  return cutLast && lines.length > 0 ? text.slice(0, -1) : text;
});
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('SseDecoder', () => {
  it('gives the reference events for any split of the bytes, CRLF and multi-byte characters cut anywhere', () => {
    fc.assert(
      fc.property(stream, cuts, (text, pieces) => {
        const bytes = Buffer.from(text, 'utf8');
        const { events, scanned } = decodeInPieces(bytes, pieces);
        expect(events).toEqual(referenceEvents(text));
        expect(scanned).toBe(bytes.length);
      }),
      { numRuns: 500 },
    );
  });

  it('splits CRLF between chunks into one line end, not two', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: a\r')).toEqual([]);
    expect(decoder.push('\n')).toEqual([]);
    expect(decoder.push('data: b\r\n\r\n')).toEqual([{ data: 'a\nb' }]);
  });

  it('decodes a character cut between every pair of bytes', () => {
    const bytes = Buffer.from('data: Grüße 🌍 中文\n\n', 'utf8');
    const decoder = new SseDecoder();
    const events: ServerSentEvent[] = [];
    for (let index = 0; index < bytes.length; index++) events.push(...decoder.push(bytes.subarray(index, index + 1)));
    expect(events).toEqual([{ data: 'Grüße 🌍 中文' }]);
  });

  it('scans each byte of a long line once, however many chunks it spans', () => {
    const payload = 'x'.repeat(4 * 1024 * 1024);
    const bytes = Buffer.from(`data: ${payload}\n\n`);
    const decoder = new SseDecoder();
    const events: ServerSentEvent[] = [];
    for (let offset = 0; offset < bytes.length; offset += 16 * 1024)
      events.push(...decoder.push(bytes.subarray(offset, offset + 16 * 1024)));
    expect(events).toHaveLength(1);
    expect(events[0]?.data.length).toBe(payload.length);
    expect(decoder.scannedBytes).toBe(bytes.length);
  });

  describe('with maxEventBytes', () => {
    const options: SseDecoderOptions = { maxEventBytes: 1024, provider: 'up' };

    function tooLarge(run: () => unknown): GatewayError {
      try {
        run();
      } catch (error) {
        if (GatewayError.isInstance(error)) return error;
        throw error;
      }
      throw new Error('no error thrown');
    }

    it('throws a 502 upstream_response_too_large as soon as one unfinished line passes the cap, whatever the split', () => {
      fc.assert(
        fc.property(cuts, (pieces) => {
          const bytes = Buffer.from(`data: ${'y'.repeat(2000)}`);
          const error = tooLarge(() => decodeInPieces(bytes, pieces, options));
          expect(error.status).toBe(502);
          expect(error.code).toBe('upstream_response_too_large');
          expect(error.message).toContain("'up'");
          expect(error.message).toContain('limits.maxEventBytes');
        }),
      );
    });

    it('counts every data line of one event toward the cap, and starts again after the blank line', () => {
      const line = `data: ${'z'.repeat(400)}\n`;
      expect(tooLarge(() => decodeInPieces(Buffer.from(line.repeat(3)), [], options)).code).toBe('upstream_response_too_large');
      const events = decodeInPieces(Buffer.from(`${line}${line}\n`.repeat(10)), [7, 500], options).events;
      expect(events).toHaveLength(10);
    });

    it('lets an event of exactly the cap through, and counts bytes, not characters', () => {
      const exact = `data: ${'é'.repeat((1024 - 6) / 2)}`;
      expect(Buffer.byteLength(exact)).toBe(1024);
      expect(decodeInPieces(Buffer.from(`${exact}\n\n`), [3], options).events).toHaveLength(1);
      expect(tooLarge(() => decodeInPieces(Buffer.from(`${exact}é\n\n`), [], options)).code).toBe('upstream_response_too_large');
    });
  });
});

describe('SseDecoder failures after events of the same chunk', () => {
  it('returns the finished events first, then throws on the next push, finish or end', () => {
    const options: SseDecoderOptions = { maxEventBytes: 1024, provider: 'up' };
    const chunk = Buffer.from(`data: first\n\ndata: ${'x'.repeat(2000)}`);
    for (const next of [
      (decoder: SseDecoder) => decoder.push('more'),
      (decoder: SseDecoder) => decoder.finish(),
      (decoder: SseDecoder) => decoder.end(),
    ]) {
      const decoder = new SseDecoder(options);
      expect(decoder.push(chunk)).toEqual([{ data: 'first' }]);
      expect(() => next(decoder)).toThrow(/limits\.maxEventBytes/);
    }
  });
});
