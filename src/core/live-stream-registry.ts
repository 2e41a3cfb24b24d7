/**
 * What a route sees of the live-stream registry (src/plugins/live-streams.ts): it registers each
 * generation, so a shutdown can wait for it and then abort it, and has its quiet stream kept alive.
 */

/** Anything a shutdown can abort (a request's Cancellation). */
export type Abortable = { abort(reason: unknown): void };

/** A stream the sweep can watch: it reports whether it wrote since the last sweep, and can send a ping. */
export type KeepAliveTarget = {
  /** True when the stream wrote anything since the previous call (and clears that mark). */
  takeActivity(): boolean;
  /** Writes the API's keep-alive frame (an SSE comment, or Anthropic's `ping` event). */
  ping(): void;
};

/** The keep-alive sweep (src/plugins/stream-keep-alive.ts). */
export interface KeepAliveWatcher {
  /** Watches a stream whose headers are sent; the returned function stops watching it. */
  watch(target: KeepAliveTarget): () => void;
}

export interface LiveStreamRegistry {
  readonly keepAlive: KeepAliveWatcher;
  /** Registers a generation; the returned function removes it when it is done. */
  add(generation: Abortable): () => void;
}
