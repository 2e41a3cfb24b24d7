/**
 * The gateway's own deadline on receiving a request's body: a client that stops mid-body gets its 408
 * and its socket closed `server.requestTimeoutMs` after its headers arrived, however many are stalled.
 *
 * Node keeps the same limit (`requestTimeout`) by sweeping its list of connections every
 * `connectionsCheckingInterval`. That list is a `std::set` ordered by each request's start time
 * (https://github.com/nodejs/node/blob/main/src/node_http_parser.cc, `ParserComparator`): two requests
 * that start on the same clock reading are one key, so the second is never inserted, and erasing one
 * erases whichever shares its key: with hundreds of connections arriving together (on a host whose
 * monotonic clock is coarse) stalled bodies can fall out of the sweep and hold their sockets for good,
 * which is how 500 stalled bodies were all still open 67 s later while one alone got its 408. One timer
 * per request whose body is still to come does not depend on that list; Node's sweep stays as it is,
 * and whichever fires first answers.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { DeadlineSweep } from '../core/deadline-sweep.js';
import { requestContextOf } from '../pipeline/request-context.js';

/** Node's own error for this case, so the client-error responder answers it as it answers Node's. */
function requestTimeoutError(): Error & { code: string } {
  return Object.assign(new Error('The request body did not arrive in time.'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

/** Whether a body is still to come once the headers are read (a GET has none; a body that fit in the first packet is complete). */
function bodyStillComing(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The sweep's period: a tenth of the limit (a 30 s limit is kept within 1 s), never under 50 ms. One
 * sweep over every request with a body still coming, instead of a timer, a closure and a `close`
 * listener per request (src/core/deadline-sweep.ts).
 */
function sweepPeriodMs(requestTimeoutMs: number): number {
  return Math.min(1_000, Math.max(50, Math.round(requestTimeoutMs / 10)));
}

/**
 * Each request's receive deadline for its body: started by the request intake as the headers are in
 * (src/plugins/request-intake.ts), dropped by the body parser once the body is in.
 * `answer` is the server's client-error handler: it writes the 408 in the API's envelope and closes the
 * socket.
 */
export class BodyDeadlines {
  private readonly pending: DeadlineSweep<IncomingMessage> | undefined;

  constructor(
    private readonly requestTimeoutMs: number,
    answer: (error: Error & { code: string }, socket: Socket) => void,
  ) {
    // 0 turns the limit off, as it does for Node's requestTimeout.
    if (requestTimeoutMs <= 0) return;
    this.pending = new DeadlineSweep<IncomingMessage>({
      resolutionMs: sweepPeriodMs(requestTimeoutMs),
      // A body that arrived, or a socket that went, needs no deadline any more.
      settled: (raw) => raw.complete || raw.socket.destroyed,
      expire: (raw) => answer(requestTimeoutError(), raw.socket),
    });
  }

  /** As the headers are in, before any other step may refuse the request without reading its body. */
  start(request: FastifyRequest): void {
    if (this.pending && bodyStillComing(request.raw))
      requestContextOf(request).bodyDeadline = this.pending.add(request.raw, this.requestTimeoutMs);
  }

  /**
   * The body is in: its deadline is dropped at once. One that waited for the next sweep to be dropped
   * would keep the request's whole object graph alive up to a second, long enough to outlive the young
   * generation and make every major garbage collection dearer.
   */
  arrived(request: FastifyRequest): void {
    const context = request.gatewayContext;
    if (context?.bodyDeadline) {
      this.pending?.delete(context.bodyDeadline);
      context.bodyDeadline = null;
    }
  }
}
