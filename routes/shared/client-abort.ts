/**
 * A cancellation that fires when the client goes away before the response is complete.
 * (The response's `close` is the reliable signal: the request's `close` fires once its body is read.)
 */
import type { FastifyReply } from 'fastify';
import { Cancellation } from '../../src/core/cancellation.js';

export type ClientAbort = { cancellation: Cancellation; dispose(): void };

export function watchClientAbort(reply: FastifyReply): ClientAbort {
  const cancellation = new Cancellation();
  const onClose = () => {
    if (!reply.raw.writableFinished) cancellation.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  return { cancellation, dispose: () => reply.raw.off('close', onClose) };
}
