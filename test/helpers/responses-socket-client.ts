/** A Responses WebSocket client for tests, on the real `ws` package: send `response.create` frames, read events up to the terminal one. */
import WebSocket from 'ws';

export type SocketEvent = Record<string, unknown> & { type: string };

const terminalTypes = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

export class ResponsesSocketClient {
  private readonly received: SocketEvent[] = [];
  private waiter: (() => void) | undefined;
  /** WebSocket pings received (the gateway's keep-alives on a quiet turn; ws answers each with a pong). */
  pings = 0;
  /** Resolves with the close frame's code and reason once the connection is closed (by either side). */
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('message', (data, isBinary) => {
      if (isBinary) throw new Error('the gateway sent a binary frame');
      this.received.push(JSON.parse(data.toString()) as SocketEvent);
      this.waiter?.();
    });
    socket.on('close', () => this.waiter?.());
    socket.on('ping', () => this.pings++);
  }

  /** Resolves once open; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, headers: Record<string, string> = {}): Promise<ResponsesSocketClient> {
    const socket = new WebSocket(url, { headers: { 'openai-beta': 'responses_websockets=2026-02-06', ...headers } });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new ResponsesSocketClient(socket)));
      socket.once('unexpected-response', (request, response) => {
        // With this listener ws leaves the refused request to us: destroy it, or the connection lingers.
        request.destroy();
        reject(new Error(`upgrade refused: ${response.statusCode}`));
      });
      socket.once('error', (error) => {
        if (!/aborted|socket hang up/.test(String(error))) reject(error);
      });
    });
  }

  send(frame: Record<string, unknown> | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Every event received and not yet taken by nextTurn. */
  pending(): SocketEvent[] {
    return this.received.splice(0);
  }

  /** Every event from now up to and including the next terminal one (completed, failed, incomplete or error). */
  async nextTurn(timeoutMs = 10_000): Promise<SocketEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.received.findIndex((event) => terminalTypes.has(event.type));
      if (end >= 0) return this.received.splice(0, end + 1);
      if (this.socket.readyState !== WebSocket.OPEN) throw new Error(`socket closed after ${JSON.stringify(this.received)}`);
      if (Date.now() > deadline) throw new Error(`no terminal event within ${timeoutMs} ms: ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 100);
      });
      this.waiter = undefined;
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
