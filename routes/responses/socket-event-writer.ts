/** Sends Responses events as WebSocket text frames, one JSON event per frame, with backpressure like the SSE writer. */
import type { WebSocket } from '@fastify/websocket';
import type { EventWriter } from './stream-response.js';

/** ws queues frames in memory without limit; past this much a slow client makes the stream wait instead. */
const highWaterBytes = 1024 * 1024;

export class SocketEventWriter implements EventWriter {
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
    const frame = this.streamId === undefined ? data : `${data.slice(0, -1)},"stream_id":${JSON.stringify(this.streamId)}}`;
    if (this.socket.bufferedAmount < highWaterBytes) {
      this.socket.send(frame);
      return;
    }
    // The callback runs once this frame reached the operating system (or the socket failed).
    await new Promise<void>((resolve) => this.socket.send(frame, () => resolve()));
  }
}
