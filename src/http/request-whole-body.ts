/**
 * One upstream HTTP request whose response body is read whole, on undici's dispatch API.
 * Why not `request()` + `body.text()`: that builds a Readable per response and runs its consume
 * machinery, a cost the whole-reply hot path (a non-streaming client) does not need; chunks are
 * collected straight from the handler instead. Timeouts stay the Agent's (headersTimeout, bodyTimeout).
 *
 * The handler uses undici's callback names of 6.x (`onConnect`, `onHeaders`, `onData`, `onComplete`,
 * `onError`), which undici 7 still calls directly: its newer controller-style handlers are wrapped
 * in an adapter that parses every response's headers into an object, about 4 µs per request
 * that a 2xx reply never needs. Headers are decoded here only when the caller asks for one.
 */
import type { Dispatcher } from 'undici';
import { countUpstreamSend, type Cancellation } from '../core/cancellation.js';
import { upstreamResponseTooLarge } from './upstream-response-too-large.js';

export class WholeResponse {
  constructor(
    readonly statusCode: number,
    private readonly rawHeaders: readonly Buffer[],
    /** The body decoded as UTF-8. */
    readonly body: string,
  ) {}

  /** A response header's value (the first, if repeated), decoded on demand; names are case-insensitive. */
  header(name: string): string | undefined {
    const wanted = name.toLowerCase();
    // undici's raw headers: name, value, name, value, … as bytes.
    for (let index = 0; index + 1 < this.rawHeaders.length; index += 2) {
      if ((this.rawHeaders[index] as Buffer).toString('latin1').toLowerCase() === wanted)
        return (this.rawHeaders[index + 1] as Buffer).toString('latin1');
    }
    return undefined;
  }
}

export type WholeRequest = {
  origin: string;
  path: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Aborting it aborts the request, before or after the connection was made. */
  signal?: Cancellation;
  /** Past `maxBytes` of body the request is aborted (nothing more is read) and rejects with a 502 naming `provider`. */
  limit?: { maxBytes: number; provider: string };
};

function decode(chunks: Buffer[]): string {
  if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The callbacks undici 7 calls on its own (see the file comment; its types mark them deprecated).
 * A class rather than an object of closures: one allocation per request, and nothing for tsx's
 * name-keeping to patch onto every new function.
 */
class WholeBodyHandler {
  private abortRequest: ((reason?: Error) => void) | undefined;
  private statusCode = 0;
  private rawHeaders: Buffer[] = [];
  private readonly chunks: Buffer[] = [];
  private receivedBytes = 0;
  private settled = false;
  /** The abort listener: a bound method, not a closure, which tsx's name-keeping would patch a name onto per request. */
  private readonly cancelled: (() => void) | undefined;

  constructor(
    private readonly signal: Cancellation | undefined,
    private readonly resolve: (response: WholeResponse) => void,
    private readonly reject: (reason: unknown) => void,
    private readonly limit: WholeRequest['limit'],
  ) {
    // An abort while the request still waits for a connection rejects at once; the abort function
    // undici hands over when the request starts then cancels it before anything is sent.
    // `on`, not `once` (which wraps the listener in two more objects): it is removed once the request settles.
    if (signal) {
      this.cancelled = this.onCancel.bind(this);
      signal.on('abort', this.cancelled);
    }
  }

  private detach(): void {
    if (this.cancelled) this.signal?.removeListener('abort', this.cancelled);
  }

  private onCancel(): void {
    const reason = this.signal?.reason;
    if (this.abortRequest) this.abortRequest(reason as Error);
    else this.fail(reason);
  }

  private fail(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.chunks.length = 0;
    this.detach();
    this.reject(reason);
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortRequest = abort;
    // undici calls this on a connected socket just before it writes the request.
    if (this.signal?.aborted) abort(this.signal.reason as Error);
    else countUpstreamSend(this.signal);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.statusCode = statusCode;
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    this.receivedBytes += chunk.length;
    const { limit } = this;
    if (limit && this.receivedBytes > limit.maxBytes) {
      // Settled first, so that the abort's own onError is ignored; the chunks go with the handler.
      this.fail(upstreamResponseTooLarge(limit.provider, 'reply', limit.maxBytes));
      this.abortRequest?.(new Error('upstream reply over the size limit'));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    let body: string;
    try {
      body = decode(this.chunks);
    } catch (error) {
      // A body past V8's longest string (~512 MB) cannot be decoded: the caller must hear it, not wait forever.
      this.fail(error);
      return;
    }
    this.settled = true;
    this.detach();
    this.resolve(new WholeResponse(this.statusCode, this.rawHeaders, body));
  }

  onError(error: Error): void {
    this.fail(error);
  }
}

/** Resolves with any status (the caller decides what an error status means); rejects on transport failure or abort. */
export function requestWholeBody(dispatcher: Dispatcher, request: WholeRequest): Promise<WholeResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<WholeResponse>((resolve, reject) => {
    const handler = new WholeBodyHandler(signal, resolve, reject, request.limit);
    const options = { origin: request.origin, path: request.path, method: request.method, headers: request.headers, body: request.body };
    dispatcher.dispatch(options, handler as unknown as Dispatcher.DispatchHandler);
  });
}
