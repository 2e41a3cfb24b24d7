/**
 * Writes Server-Sent Events to a raw Node response with backpressure: a write that fills the
 * socket buffer waits for `drain`, and a closed client ends the wait instead of hanging.
 */
import type { ServerResponse } from 'node:http';
import type { KeepAliveTarget } from '../../src/core/live-stream-registry.js';

/** An SSE comment: every SSE parser skips lines that start with `:` (the openai SDK among them). */
export const commentKeepAlive = ': ping\n\n';

export class SseWriter implements KeepAliveTarget {
  private closed = false;
  private corked = false;
  private wrote = false;
  private readonly uncork = () => {
    this.corked = false;
    this.response.uncork();
  };

  constructor(
    private readonly response: ServerResponse,
    private readonly keepAliveFrame: string = commentKeepAlive,
  ) {
    response.once('close', () => {
      this.closed = true;
    });
  }

  get isClosed(): boolean {
    return this.closed || this.response.destroyed;
  }

  start(headers: Record<string, string>): void {
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
      ...headers,
    });
  }

  /** Writes one `data:` frame (plus an optional `event:` line). */
  async send(data: string, event?: string): Promise<void> {
    if (this.isClosed) return;
    const frame = event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
    this.wrote = true;
    // Frames produced in one tick (all the events of one upstream read) leave in one socket write.
    if (!this.corked) {
      this.corked = true;
      this.response.cork();
      process.nextTick(this.uncork);
    }
    if (this.response.write(frame)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.on('drain', done);
      this.response.on('close', done);
    });
  }

  takeActivity(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }

  /** Between two frames (each goes out in one write); skipped while the client is not reading what it has. */
  ping(): void {
    if (this.isClosed || this.response.writableEnded || this.response.writableNeedDrain) return;
    this.response.write(this.keepAliveFrame);
  }

  end(): void {
    if (this.corked) this.uncork();
    if (!this.response.writableEnded) this.response.end();
  }
}
