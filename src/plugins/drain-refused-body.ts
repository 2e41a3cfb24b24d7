/**
 * A request refused while its body is still arriving (a 413 for a body over the limit, a 400 for malformed
 * JSON read before its end, a bad Content-Encoding): fastify answers with `Connection: close`, and Node
 * closes the socket with the rest of the body unread. Closing a TCP connection with unread data sends a
 * reset, which can reach the client before it has read the answer: it saw "connection reset" instead of the
 * 413 (about 1 upload in 12 with curl, which sends without `Expect: 100-continue` below 1 MB; expect-continue.ts
 * covers those above). Instead the rest of the body is read and thrown away, and the connection stays open
 * as any other; bounded, so a client sending without end still loses its connection: past `maxDrainBytes`
 * or `maxDrainMs` the socket is closed as before.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Twice the default body limit: a client that declared a large upload finishes it quickly on any real link. */
const maxDrainBytes = 64 * 1024 * 1024;
const maxDrainMs = 10_000;

/** Called as the refusal is sent: reads away what remains of the body, unless it has all arrived. */
export function drainRefusedBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete || raw.socket.destroyed) return;
  // A client that asked `Expect: 100-continue` and got no 100 need not send the body at all: read on, the
  // gateway would take its next request for that body. Closing is safe there, with nothing unread.
  if (typeof request.headers.expect === 'string') return;
  reply.removeHeader('connection');
  // A decoding stream (request-body-decoding.ts) may still be fed: the bytes go nowhere now.
  raw.unpipe();
  let drained = 0;
  const giveUp = () => raw.socket.destroy();
  const timer = setTimeout(giveUp, maxDrainMs);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxDrainBytes) giveUp();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}
