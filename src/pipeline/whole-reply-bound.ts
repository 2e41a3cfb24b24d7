/**
 * Bounds a reply the client reads whole (a non-streaming request) in time and in bytes. Such a reply is
 * folded before the client sees a byte, so an upstream that streams forever would otherwise hold the
 * request, and grow its memory, without end. A body read whole is already capped by the provider's
 * `limits.maxResponseBytes`; a streamed reply folded for the client is capped here by the same figure
 * (the text, reasoning and argument bytes it carries), and the whole wait by `server.wholeReplyTimeoutMs`.
 */
import { DeadlineSweep, type Deadline } from '../core/deadline-sweep.js';
import { EventList } from '../core/event-list.js';
import { gatewayError } from '../core/gateway-error.js';
import type { StreamEvent } from '../core/stream-event.js';
import { upstreamResponseTooLarge } from '../http/upstream-response-too-large.js';
import type { RequestCancellation } from './request-cancellation.js';

/** The byte cap of the provider that answers. */
export type WholeReplyLimit = { provider: string; maxBytes: number };

/** The bytes an event adds to the folded reply (what the fold keeps of it). */
function foldedBytes(event: StreamEvent): number {
  switch (event.type) {
    case 'text-delta':
    case 'refusal-delta':
    case 'reasoning-delta':
      return Buffer.byteLength(event.delta);
    case 'tool-call-delta':
      return Buffer.byteLength(event.argumentsDelta);
    default:
      return 0;
  }
}

async function* cappedEvents(events: AsyncIterable<StreamEvent>, limit: WholeReplyLimit): AsyncGenerator<StreamEvent> {
  let bytes = 0;
  for await (const event of events) {
    bytes += foldedBytes(event);
    if (bytes > limit.maxBytes) {
      // Returning closes the upstream stream (its reader destroys the body): it is not read further.
      yield { type: 'error', error: upstreamResponseTooLarge(limit.provider, 'reply', limit.maxBytes) };
      return;
    }
    yield event;
  }
}

/** The run's events, capped; a reply already read whole (and capped by the upstream client) passes as it is. */
export function capWholeReply(events: AsyncIterable<StreamEvent>, limit: WholeReplyLimit): AsyncIterable<StreamEvent> {
  return events instanceof EventList ? events : cappedEvents(events, limit);
}

/**
 * Aborts a request's cancellation with a 504 `upstream_timeout` once `timeoutMs` passed (0: never), so the
 * upstream request is torn down and the fold ends in that error. One sweep for all requests (within a
 * tenth of the limit, at most 1 s late), not a timer per request.
 */
export class WholeReplyDeadlines {
  private readonly sweep: DeadlineSweep<RequestCancellation>;

  /** `remedy`: what the client can do instead, ending the error's message (a chat can stream, embeddings cannot). */
  constructor(
    private readonly timeoutMs: number,
    remedy = 'stream the reply to wait longer',
  ) {
    this.sweep = new DeadlineSweep({
      resolutionMs: Math.min(1_000, Math.max(50, Math.round(timeoutMs / 10))),
      expire: (cancellation) =>
        cancellation.abort(
          gatewayError('upstream_timeout', {
            message: `The upstream did not finish the reply within ${timeoutMs} ms, the gateway's limit for a non-streaming request (server.wholeReplyTimeoutMs); ${remedy}.`,
          }),
        ),
    });
  }

  /** Starts the request's wait; the handle disarms it (none when there is no limit). */
  arm(cancellation: RequestCancellation): Deadline<RequestCancellation> | undefined {
    return this.timeoutMs > 0 ? this.sweep.add(cancellation, this.timeoutMs) : undefined;
  }

  disarm(deadline: Deadline<RequestCancellation> | undefined): void {
    if (deadline) this.sweep.delete(deadline);
  }
}
