/**
 * `Expect: 100-continue` (curl sends it for bodies over 1 MB): Node answers "100 Continue" at once by
 * default, so a body over `server.bodyLimitBytes` was invited, then refused with a 413 while it was still
 * arriving. Closing a connection with unread data resets it, and the client often lost the 413 and saw a
 * reset instead. A body whose declared length is over the limit now gets no "100 Continue": the request
 * goes straight to the app, whose 413 the client reads before it sends anything
 * (RFC 9110 §10.1.1: a server may answer with a final status instead of 100).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

function declaresLengthOver(request: IncomingMessage, limit: number | undefined): boolean {
  const declared = Number(request.headers['content-length']);
  return limit !== undefined && Number.isFinite(declared) && declared > limit;
}

/** `bodyLimit` is read per request: a reload may change it. */
export function continueOnlyWithinBodyLimit(server: Server, bodyLimit: () => number | undefined): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaresLengthOver(request, bodyLimit())) response.writeContinue();
    // With a checkContinue listener Node leaves the request to it: handed on as any other request.
    server.emit('request', request, response);
  });
}
