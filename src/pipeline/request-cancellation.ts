/** The Cancellation a route makes per request: an EventEmitter (cheap to make and to subscribe to) that a shutdown or a gone client aborts. */
import { EventEmitter } from 'node:events';
import type { Cancellation } from '../core/cancellation.js';

export class RequestCancellation extends EventEmitter implements Cancellation {
  aborted = false;
  reason: unknown = undefined;
  /** Counted by the upstream client and SDK adapters (Cancellation.upstreamSends). */
  upstreamSends = 0;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}
