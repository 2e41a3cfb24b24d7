/**
 * Reads an undici response body (`request()`'s Readable) whole as UTF-8 text, up to a cap: past it the
 * body is destroyed at once (its connection closed, nothing more read or kept) and a 502 is thrown.
 * undici's own `body.text()` has no cap: it would buffer whatever the upstream sends.
 */
import type { Readable } from 'node:stream';
import { upstreamResponseTooLarge } from './upstream-response-too-large.js';

export type ReadLimit = { maxBytes: number; provider: string };

export async function readCappedText(body: Readable, limit: ReadLimit): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  // Leaving the loop (by the throw) destroys the body: async iteration's default.
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    length += bytes.length;
    if (length > limit.maxBytes) {
      chunks.length = 0;
      throw upstreamResponseTooLarge(limit.provider, 'reply', limit.maxBytes);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}
