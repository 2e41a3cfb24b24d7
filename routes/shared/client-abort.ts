/**
 * An AbortSignal that fires when the client goes away before the response is complete.
 * (The response's `close` is the reliable signal: the request's `close` fires once its body is read.)
 */
import type { FastifyReply } from 'fastify';

export type ClientAbort = { controller: AbortController; signal: AbortSignal; dispose(): void };

export function watchClientAbort(reply: FastifyReply): ClientAbort {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  return { controller, signal: controller.signal, dispose: () => reply.raw.off('close', onClose) };
}
