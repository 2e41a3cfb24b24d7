/**
 * Sends Responses events as WebSocket text frames, one JSON event per frame, with backpressure like the
 * SSE writer; on a quiet turn, keep-alives are WebSocket pings (control frames the client's library
 * answers itself, never seen as events), as proxies cut idle WebSocket connections like idle streams.
 */
import type { WebSocket } from '@fastify/websocket';
import type { KeepAliveTarget } from '../../src/core/live-stream-registry.js';
import type { EventWriter } from './stream-response.js';

/** ws queues frames in memory without limit; past this much a slow client makes the stream wait instead. */
const highWaterBytes = 1024 * 1024;

export class SocketEventWriter implements EventWriter, KeepAliveTarget {
  private wrote = false;

  /** `streamId`: the frame's `stream_id`, echoed on every event (OpenAI's lanes). */
  constructor(
    private readonly socket: WebSocket,
    private readonly streamId?: string,
  ) {}

  get isClosed(): boolean {
    return this.socket.readyState !== this.socket.OPEN;
  }

  async send(data: string): Promise<void> {
    if (this.isClosed) return;
    this.wrote = true;
    const frame = this.streamId === undefined ? data : `${data.slice(0, -1)},"stream_id":${JSON.stringify(this.streamId)}}`;
    if (this.socket.bufferedAmount < highWaterBytes) {
      this.socket.send(frame);
      return;
    }
    // The callback runs once this frame reached the operating system (or the socket failed).
    await new Promise<void>((resolve) => this.socket.send(frame, () => resolve()));
  }

  takeActivity(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }

  /** Skipped while the client is not reading what it has (the ping would only queue behind it). */
  ping(): void {
    if (this.isClosed || this.socket.bufferedAmount >= highWaterBytes) return;
    this.socket.ping();
  }
}
