/**
 * Incremental Server-Sent Events decoder (WHATWG rules): bytes in any split, events out.
 * Handles \n, \r\n and \r line ends split across chunks, comments, multi-line data, and caps one event.
 *
 * Why bytes and not text: every byte of the stream is looked at once. Lines end only at the ASCII bytes
 * CR and LF, which never occur inside a multi-byte UTF-8 sequence, so a line is decoded only when it is
 * complete: a character split between chunks needs no decoder state, an unfinished line is kept as the
 * chunks it came in (never re-joined or rescanned per chunk: that made one 50 MB line cost 28 CPU-seconds),
 * and the size of an event is counted in real bytes.
 */
import { upstreamResponseTooLarge } from './upstream-response-too-large.js';

export type ServerSentEvent = { event?: string; data: string; id?: string };

export type SseDecoderOptions = {
  /**
   * Largest event (the bytes of its lines, an unfinished one included); past it push() throws a 502
   * GatewayError, or returns the events finished before it in the same chunk and throws on the next call.
   */
  maxEventBytes: number;
  /** Named in that error. */
  provider: string;
};

const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const byteOrderMark = '\uFEFF';

function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The next index of `byte` at or after `start`, reusing `known` when it is still ahead (-1: none left in the chunk). */
function nextIndex(bytes: Buffer, byte: number, start: number, known: number): number {
  if (known === -1 || known >= start) return known;
  return bytes.indexOf(byte, start);
}

export class SseDecoder {
  /** The unfinished line's bytes, in the chunks they came in. */
  private partialLine: Buffer[] = [];
  private partialLineBytes = 0;
  /** Bytes of the current event's finished lines. */
  private eventBytes = 0;
  private dataLines: string[] = [];
  private eventName: string | undefined;
  private eventId: string | undefined;
  /** A trailing \r may be the first half of \r\n; remember it so the \n is not a second line end. */
  private pendingCarriageReturn = false;
  private atStreamStart = true;
  private scanned = 0;
  /** The cap was passed after events of the same chunk: thrown by the next call. */
  private failure: Error | undefined;

  constructor(private readonly options?: SseDecoderOptions) {}

  /** Bytes looked at so far: equal to the bytes pushed, however they were split (each byte is scanned once). */
  get scannedBytes(): number {
    return this.scanned;
  }

  push(chunk: Uint8Array | string): ServerSentEvent[] {
    if (this.failure) throw this.failure;
    const events: ServerSentEvent[] = [];
    try {
      this.decode(asBuffer(chunk), events);
    } catch (error) {
      if (events.length === 0) throw error;
      // The events before the oversized one are the reply so far: the client sees them first.
      this.failure = error as Error;
      this.partialLine = [];
    }
    return events;
  }

  private decode(bytes: Buffer, events: ServerSentEvent[]): void {
    this.scanned += bytes.length;
    let start = 0;
    if (this.pendingCarriageReturn && bytes.length > 0) {
      this.pendingCarriageReturn = false;
      if (bytes[0] === lineFeed) start = 1;
    }
    // Positions of the next LF and CR, each found by one scan that later lines reuse: a stream with
    // only \n line ends must not rescan the rest of the chunk for a \r on every line.
    let newline = -2;
    let carriage = -2;
    while (start < bytes.length) {
      newline = nextIndex(bytes, lineFeed, start, newline);
      carriage = nextIndex(bytes, carriageReturn, start, carriage);
      const end = newline === -1 ? carriage : carriage === -1 ? newline : Math.min(newline, carriage);
      if (end === -1) break;
      const lineBytes = this.partialLineBytes + end - start;
      const event = this.takeLine(this.lineText(bytes, start, end), lineBytes);
      if (event) events.push(event);
      if (bytes[end] === carriageReturn) {
        if (end + 1 < bytes.length) start = bytes[end + 1] === lineFeed ? end + 2 : end + 1;
        else {
          start = end + 1;
          this.pendingCarriageReturn = true;
        }
      } else start = end + 1;
    }
    if (start < bytes.length) {
      this.partialLine.push(bytes.subarray(start));
      this.partialLineBytes += bytes.length - start;
      this.checkSize(0);
    }
  }

  /** The body ended, and an unfinished event is dropped (as WHATWG says): throws a cap failure push() deferred. */
  end(): void {
    if (this.failure) throw this.failure;
  }

  /** Flushes an event left without its terminating blank line when the body ends (more lenient than WHATWG). */
  finish(): ServerSentEvent[] {
    if (this.failure) throw this.failure;
    const events: ServerSentEvent[] = [];
    if (this.partialLineBytes > 0) {
      const lineBytes = this.partialLineBytes;
      const event = this.takeLine(this.lineText(Buffer.alloc(0), 0, 0), lineBytes);
      if (event) events.push(event);
    }
    const last = this.takeLine('', 0);
    if (last) events.push(last);
    return events;
  }

  /** The text of the line ending at `end` (the unfinished line's earlier chunks first), once it fits the cap. */
  private lineText(bytes: Buffer, start: number, end: number): string {
    let text: string;
    if (this.partialLineBytes === 0) {
      this.checkSize(end - start);
      text = start === end ? '' : bytes.toString('utf8', start, end);
    } else {
      this.partialLine.push(bytes.subarray(start, end));
      this.partialLineBytes += end - start;
      this.checkSize(0);
      text = Buffer.concat(this.partialLine, this.partialLineBytes).toString('utf8');
      this.partialLine = [];
      this.partialLineBytes = 0;
    }
    if (this.atStreamStart) {
      this.atStreamStart = false;
      if (text.startsWith(byteOrderMark)) text = text.slice(1);
    }
    return text;
  }

  /** Throws once the event's lines, the unfinished one and `more` bytes together pass the cap. */
  private checkSize(more: number): void {
    const { options } = this;
    if (!options) return;
    if (this.eventBytes + this.partialLineBytes + more > options.maxEventBytes) {
      throw upstreamResponseTooLarge(options.provider, 'event', options.maxEventBytes);
    }
  }

  /** `bytes`: the line's length in bytes, counted toward its event (comments are not part of one). */
  private takeLine(line: string, bytes: number): ServerSentEvent | undefined {
    if (line === '') {
      this.eventBytes = 0;
      if (this.dataLines.length === 0) {
        this.eventName = undefined;
        return undefined;
      }
      const event: ServerSentEvent = { data: this.dataLines.join('\n') };
      if (this.eventName !== undefined) event.event = this.eventName;
      if (this.eventId !== undefined) event.id = this.eventId;
      this.dataLines = [];
      this.eventName = undefined;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    this.eventBytes += bytes;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventName = value;
    else if (field === 'id') this.eventId = value;
    return undefined;
  }
}
