/**
 * One request's cancellation (the client went away, or the gateway is shutting down), as an
 * EventEmitter with `aborted` and `reason`: undici takes exactly that as a request's `signal`.
 * Why not an AbortController: creating a Node AbortSignal and adding and removing its EventTarget
 * listener measured ~4 µs per request, an emitter ~0.1 µs. Callers that need a real AbortSignal
 * (fetch, the `openai` and `ollama` packages) get one from `signal`, made on first use.
 */
import { EventEmitter } from 'node:events';

/** What a reader checks after the fact: did the request end because it was cancelled, and why. */
export type AbortState = { readonly aborted: boolean; readonly reason: unknown };

export class Cancellation extends EventEmitter implements AbortState {
  aborted = false;
  reason: unknown = undefined;
  private controller: AbortController | undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.emit('abort');
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}
