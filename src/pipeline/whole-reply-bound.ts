/**
 * Bounds a reply the client reads whole (a non-streaming request) in time and in bytes. Such a reply is
 * folded before the client sees a byte, so an upstream that streams forever would otherwise hold the
 * request, and grow its memory, without end: a body read whole is already capped by the provider's
 * `limits.maxResponseBytes`, and a streamed reply folded for the client is now capped by the same
 * figure (the text, reasoning and argument bytes it carries) and by `server.wholeReplyTimeoutMs`.
 */
import type { Cancellation } from '../core/cancellation.js';
import { EventList } from '../core/event-list.js';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { StreamEvent } from '../core/stream-event.js';
import { upstreamResponseTooLarge } from '../http/upstream-response-too-large.js';
import { RequestCancellation } from './request-cancellation.js';

/** The byte cap of the provider that answers. */
export type WholeReplyLimit = { provider: string; maxBytes: number };

/** The bytes an event adds to the folded reply (what the fold keeps of it). */
function foldedBytes(event: StreamEvent): number {
  switch (event.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return Buffer.byteLength(event.delta);
    case 'tool-call-delta':
      return Buffer.byteLength(event.argumentsDelta);
    default:
      return 0;
  }
}

/**
 * One non-streaming run's bound: `context` is the request's own, with a cancellation that also fires at
 * the deadline (the upstream request is aborted, and reads as a 504 `upstream_timeout`); `bound` caps the
 * events of the target that answered; `dispose` ends the deadline once the reply was read (or failed).
 */
export class WholeReplyBound {
  readonly context: ProviderContext;
  private readonly cancellation = new RequestCancellation();
  private readonly deadline: NodeJS.Timeout | undefined;
  private readonly forwardAbort: () => void;

  constructor(
    private readonly outer: ProviderContext,
    timeoutMs: number,
  ) {
    this.forwardAbort = () => this.cancellation.abort(outer.cancellation.reason);
    outer.cancellation.once('abort', this.forwardAbort);
    if (timeoutMs > 0) {
      const error = gatewayError('upstream_timeout', {
        message: `The upstream did not finish the reply within ${timeoutMs} ms, the gateway's limit for a non-streaming request (server.wholeReplyTimeoutMs); stream the reply to wait longer.`,
      });
      this.deadline = setTimeout(() => this.cancellation.abort(error), timeoutMs);
    }
    this.context = { ...outer, cancellation: this.cancellation as Cancellation };
  }

  /** The run's events, capped; a reply already read whole (and capped by the upstream client) passes as it is. */
  bound(events: AsyncIterable<StreamEvent>, limit: WholeReplyLimit): AsyncIterable<StreamEvent> {
    if (events instanceof EventList) {
      this.dispose();
      return events;
    }
    return this.capped(events, limit);
  }

  private async *capped(events: AsyncIterable<StreamEvent>, limit: WholeReplyLimit): AsyncGenerator<StreamEvent> {
    let bytes = 0;
    try {
      for await (const event of events) {
        bytes += foldedBytes(event);
        if (bytes > limit.maxBytes) {
          const error: GatewayError = upstreamResponseTooLarge(limit.provider, 'reply', limit.maxBytes);
          // Aborted first, so the upstream request is torn down rather than left to finish unread.
          this.cancellation.abort(error);
          yield { type: 'error', error };
          return;
        }
        yield event;
      }
    } finally {
      this.dispose();
    }
  }

  /** Idempotent. */
  dispose(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.outer.cancellation.removeListener('abort', this.forwardAbort);
  }
}
