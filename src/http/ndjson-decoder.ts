/**
 * Incremental newline-delimited JSON decoder (Ollama's `application/x-ndjson` streams): bytes in any
 * split, parsed values out, one line capped at `maxEventBytes`.
 *
 * As in the SSE decoder, lines end only at the ASCII byte LF, which never occurs inside a multi-byte UTF-8
 * sequence, so a line is decoded only when it is complete and an unfinished line is kept as the chunks it
 * came in: never re-joined or rescanned per chunk (the `ollama` package split its whole pending text at
 * every chunk, quadratic in the length of a long line).
 */
import type { SseDecoderOptions } from './sse-decoder.js';
import { errorFromUnreadableJson } from './upstream-error.js';
import { upstreamResponseTooLarge } from './upstream-response-too-large.js';

const lineFeed = 0x0a;

export class NdjsonDecoder {
  private partialLine: Buffer[] = [];
  private partialLineBytes = 0;
  /** A line past the cap, or not JSON, after values of the same chunk: thrown by the next call. */
  private failure: Error | undefined;

  constructor(private readonly options: SseDecoderOptions) {}

  /** The values of the lines `chunk` completes; blank lines are skipped. */
  push(chunk: Uint8Array | string): unknown[] {
    if (this.failure) throw this.failure;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const values: unknown[] = [];
    try {
      this.decode(bytes, values);
    } catch (error) {
      if (values.length === 0) throw error;
      // The values before the failing line are the reply so far: the client sees them first.
      this.failure = error as Error;
      this.partialLine = [];
      this.partialLineBytes = 0;
    }
    return values;
  }

  /** The body ended: a last line without its line end still counts. */
  finish(): unknown[] {
    if (this.failure) throw this.failure;
    if (this.partialLineBytes === 0) return [];
    const text = Buffer.concat(this.partialLine, this.partialLineBytes).toString('utf8');
    this.partialLine = [];
    this.partialLineBytes = 0;
    const values: unknown[] = [];
    this.take(text, values);
    return values;
  }

  private decode(bytes: Buffer, values: unknown[]): void {
    const { maxEventBytes, provider } = this.options;
    let start = 0;
    for (let end = bytes.indexOf(lineFeed); end !== -1; end = bytes.indexOf(lineFeed, start)) {
      if (this.partialLineBytes + end - start > maxEventBytes) throw upstreamResponseTooLarge(provider, 'event', maxEventBytes);
      let text: string;
      if (this.partialLineBytes === 0) text = bytes.toString('utf8', start, end);
      else {
        this.partialLine.push(bytes.subarray(start, end));
        text = Buffer.concat(this.partialLine, this.partialLineBytes + end - start).toString('utf8');
        this.partialLine = [];
        this.partialLineBytes = 0;
      }
      this.take(text, values);
      start = end + 1;
    }
    if (start < bytes.length) {
      this.partialLine.push(bytes.subarray(start));
      this.partialLineBytes += bytes.length - start;
      if (this.partialLineBytes > maxEventBytes) throw upstreamResponseTooLarge(provider, 'event', maxEventBytes);
    }
  }

  private take(text: string, values: unknown[]): void {
    // JSON.parse allows surrounding whitespace, so a \r\n line end needs no trimming; a blank line is no value.
    if (text.trim() === '') return;
    try {
      values.push(JSON.parse(text));
    } catch (error) {
      throw errorFromUnreadableJson(this.options.provider, error);
    }
  }
}
