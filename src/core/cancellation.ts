/**
 * One request's cancellation (the client went away, or the gateway is shutting down): the one type
 * every layer passes down to the upstream client. Its shape is the EventEmitter-like `signal` undici
 * accepts as it is, so core states only the interface; the emitter itself is built by the pipeline
 * (src/pipeline/request-cancellation.ts). Why not an AbortSignal: creating a Node AbortSignal and adding
 * and removing its EventTarget listener measured ~4 µs per request, an emitter ~0.1 µs.
 */

type AbortListener = () => void;

export interface Cancellation {
  readonly aborted: boolean;
  /** Why it was cancelled (a GatewayError for a shutdown, a TimeoutError for a deadline); undefined until then. */
  readonly reason: unknown;
  on(event: 'abort', listener: AbortListener): unknown;
  once(event: 'abort', listener: AbortListener): unknown;
  removeListener(event: 'abort', listener: AbortListener): unknown;
  /**
   * Upstream requests handed to the network under this cancellation, counted by whoever sends (the upstream
   * client when undici writes the request, an SDK-based adapter when it hands the request over): a request
   * cancelled while still waiting for a connection reached no upstream and is charged nothing
   * (src/pipeline/stream-with-retries.ts). Absent where nobody counts: every cancelled call then counts as sent.
   */
  upstreamSends?: number;
}

/** Counts one upstream request handed to the network, when this cancellation counts them (and it is not cancelled yet). */
export function countUpstreamSend(cancellation: Cancellation | undefined): void {
  if (cancellation?.upstreamSends !== undefined && !cancellation.aborted) cancellation.upstreamSends++;
}

/** Whether an upstream request was handed over since `sendsBefore` (read before the call); unknown counts as sent. */
export function sentSince(cancellation: Cancellation, sendsBefore: number | undefined): boolean {
  return sendsBefore === undefined || cancellation.upstreamSends === undefined || cancellation.upstreamSends > sendsBefore;
}

/** An AbortSignal seen as a Cancellation: for deadlines (`AbortSignal.timeout`) and callers that already hold a signal. */
class SignalCancellation implements Cancellation {
  constructor(private readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  on(_event: 'abort', listener: AbortListener): this {
    this.signal.addEventListener('abort', listener);
    return this;
  }

  once(_event: 'abort', listener: AbortListener): this {
    this.signal.addEventListener('abort', listener, { once: true });
    return this;
  }

  removeListener(_event: 'abort', listener: AbortListener): this {
    this.signal.removeEventListener('abort', listener);
    return this;
  }
}

export function cancellationFromSignal(signal: AbortSignal): Cancellation {
  return new SignalCancellation(signal);
}
