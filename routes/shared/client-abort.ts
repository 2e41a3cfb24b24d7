/**
 * A cancellation that fires when the client goes away before the response is complete.
 * (The response's `close` is the reliable signal: the request's `close` fires once its body is read.)
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';

/** One object per request, its listener a prototype method bound once (no closures per request). */
export class ClientAbort {
  readonly cancellation = new RequestCancellation();
  private readonly onClose: () => void;

  constructor(private readonly response: ServerResponse) {
    this.onClose = this.abortUnlessFinished.bind(this);
    response.on('close', this.onClose);
  }

  private abortUnlessFinished(): void {
    if (!this.response.writableFinished) this.cancellation.abort(new Error('client closed the connection'));
  }

  dispose(): void {
    this.response.off('close', this.onClose);
  }
}

export function watchClientAbort(reply: FastifyReply): ClientAbort {
  return new ClientAbort(reply.raw);
}
