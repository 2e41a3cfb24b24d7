/** limitFetchResponse: whole bodies capped, NDJSON bodies capped per line and handed on in whole lines, for any split of the bytes. */
import fc from 'fast-check';
import { Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { limitFetchResponse, type FetchResponseLimit } from '../../src/http/limit-fetch-response.js';

function responseOf(pieces: Uint8Array[]): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < pieces.length) controller.enqueue(pieces[index++] as Uint8Array);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
}

function split(bytes: Buffer, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

/** What a reader of the limited body sees: its chunks as text, and how it ended. */
async function readAll(response: Response): Promise<{ chunks: string[]; error?: unknown }> {
  const chunks: string[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks };
      chunks.push(Buffer.from(value).toString('utf8'));
    }
  } catch (error) {
    return { chunks, error };
  }
}

const lines: FetchResponseLimit = { type: 'lines', maxBytes: 64, provider: 'local' };
const ndjsonLine = fc.string({ unit: fc.constantFrom('a', '"', '{', 'é', '🌍'), maxLength: 12 }).map((text) => `${JSON.stringify({ text })}\n`);
const cuts = fc.array(fc.nat(), { maxLength: 10 });

describe('limitFetchResponse', () => {
  it('hands on NDJSON in whole lines only, the same bytes in the same order, whatever the split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ndjsonLine, { maxLength: 12 }), fc.boolean(), cuts, async (body, unterminated, pieces) => {
        const text = body.join('') + (unterminated ? '{"last":1}' : '');
        const { chunks, error } = await readAll(limitFetchResponse(responseOf(split(Buffer.from(text), pieces)), lines));
        expect(error).toBeUndefined();
        expect(chunks.join('')).toBe(text);
        // Every chunk but a final unterminated line ends at a line end, so the package's split never rescans.
        for (const chunk of unterminated ? chunks.slice(0, -1) : chunks) expect(chunk.endsWith('\n')).toBe(true);
      }),
    );
  });

  it('passes on the lines before one past the cap, then fails with upstream_response_too_large (maxEventBytes)', async () => {
    await fc.assert(
      fc.asyncProperty(cuts, async (pieces) => {
        const text = `{"a":1}\n{"b":2}\n{"long":"${'x'.repeat(100)}"}\n{"c":3}\n`;
        const { chunks, error } = await readAll(limitFetchResponse(responseOf(split(Buffer.from(text), pieces)), lines));
        expect(GatewayError.isInstance(error) && error.code).toBe('upstream_response_too_large');
        expect((error as GatewayError).message).toContain('limits.maxEventBytes');
        expect(chunks.join('')).toBe('{"a":1}\n{"b":2}\n');
      }),
    );
  });

  it('fails a whole body past maxBytes (maxResponseBytes), and cancels the upstream body', async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(Buffer.alloc(40, 'x'));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const limited = limitFetchResponse(new Response(source, { status: 200 }), { type: 'whole', maxBytes: 100, provider: 'up' });
    const error = await limited.text().catch((reason: unknown) => reason);
    expect(GatewayError.isInstance(error) && error.code).toBe('upstream_response_too_large');
    expect((error as GatewayError).message).toContain('limits.maxResponseBytes');
    expect(cancelled).toBe(error);
  });
});
