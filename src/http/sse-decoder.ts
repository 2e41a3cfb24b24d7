/**
 * Incremental Server-Sent Events decoder (WHATWG rules): bytes in any split, events out.
 * Handles \n, \r\n and \r line ends split across chunks, comments, multi-line data.
 */

export type ServerSentEvent = { event?: string; data: string; id?: string };

export class SseDecoder {
  private buffer = '';
  private dataLines: string[] = [];
  private eventName: string | undefined;
  private eventId: string | undefined;
  private readonly textDecoder = new TextDecoder();
  /** A trailing \r may be the first half of \r\n; remember it so the \n is not a second line end. */
  private pendingCarriageReturn = false;

  push(chunk: Uint8Array | string): ServerSentEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.textDecoder.decode(chunk, { stream: true });
    if (this.pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.pendingCarriageReturn = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (;;) {
      const newline = this.buffer.indexOf('\n', start);
      const carriage = this.buffer.indexOf('\r', start);
      let end: number;
      if (newline === -1 && carriage === -1) break;
      if (carriage === -1 || (newline !== -1 && newline < carriage)) end = newline;
      else end = carriage;
      const line = this.buffer.slice(start, end);
      if (this.buffer[end] === '\r') {
        if (end + 1 < this.buffer.length) start = this.buffer[end + 1] === '\n' ? end + 2 : end + 1;
        else {
          start = end + 1;
          this.pendingCarriageReturn = true;
        }
      } else start = end + 1;
      const event = this.takeLine(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** Flushes an event left without its terminating blank line when the body ends. */
  finish(): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    if (this.buffer) {
      const event = this.takeLine(this.buffer);
      if (event) events.push(event);
      this.buffer = '';
    }
    const last = this.takeLine('');
    if (last) events.push(last);
    return events;
  }

  private takeLine(line: string): ServerSentEvent | undefined {
    if (line === '') {
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

/** Decodes a byte stream into SSE events. */
export async function* decodeSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of body) yield* decoder.push(chunk);
  yield* decoder.finish();
}
