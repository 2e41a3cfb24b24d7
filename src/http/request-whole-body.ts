/**
 * One upstream HTTP request whose response body is read whole, on undici's dispatch API.
 * Why not `request()` + `body.text()`: that builds a Readable per response and runs its consume
 * machinery, a cost the whole-reply hot path (a non-streaming client) does not need; chunks are
 * collected straight from the handler instead. Timeouts stay the Agent's (headersTimeout, bodyTimeout).
 */
import type { Dispatcher } from 'undici';
import type { Cancellation } from '../core/cancellation.js';

export type WholeResponse = {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded as UTF-8. */
  body: string;
};

export type WholeRequest = {
  origin: string;
  path: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  /** Aborting it aborts the request, before or after the connection was made. */
  signal?: AbortSignal | Cancellation;
};

/** Subscribes to an AbortSignal or a Cancellation alike; returns the unsubscribe. */
function onAbort(signal: AbortSignal | Cancellation, listener: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  signal.once('abort', listener);
  return () => signal.removeListener('abort', listener);
}

function decode(chunks: Buffer[]): string {
  if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8');
  return Buffer.concat(chunks).toString('utf8');
}

/** Resolves with any status (the caller decides what an error status means); rejects on transport failure or abort. */
export function requestWholeBody(dispatcher: Dispatcher, request: WholeRequest): Promise<WholeResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<WholeResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let statusCode = 0;
    let headers: WholeResponse['headers'] = {};
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe?.();
      outcome();
    };
    // An abort while the request still waits for a connection rejects at once; undici's controller,
    // handed over when the request starts, then cancels it before anything is sent.
    const unsubscribe = signal
      ? onAbort(signal, () => (controller ? controller.abort(signal.reason) : settle(() => reject(signal.reason))))
      : undefined;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal?.aborted) started.abort(signal.reason);
      },
      onResponseStart(_controller, status, responseHeaders) {
        statusCode = status;
        headers = responseHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle(() => resolve({ statusCode, headers, body: decode(chunks) }));
      },
      onResponseError(_controller, error) {
        settle(() => reject(error));
      },
    };
    dispatcher.dispatch({ origin: request.origin, path: request.path, method: request.method, headers: request.headers, body: request.body }, handler);
  });
}
