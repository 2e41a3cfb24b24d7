/**
 * Node's `clientError`: a request that never became one (headers over the size limit, a malformed
 * request line, a request that took too long to arrive). There is no request or response object, so
 * the answer is written to the socket as a whole HTTP response, in the API's envelope like every other.
 * https://nodejs.org/api/http.html#event-clienterror
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ErrorEnvelopes } from './error-envelope.js';

/** Node's parse error; `rawPacket` is the Buffer it failed on (fastify's types describe its JSON form). */
type ClientError = Error & { code?: string; rawPacket?: unknown };

function gatewayErrorFor(error: ClientError): GatewayError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return gatewayError('request_header_fields_too_large', { message: 'The request headers are larger than the gateway accepts.' });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return gatewayError('request_timeout', { message: 'The request did not arrive in time.' });
    default:
      return gatewayError('malformed_http_request', { message: `The request is not valid HTTP (${error.code ?? error.message}).` });
  }
}

/** The response Node made for the socket's current request, once that request's headers were read. */
function currentResponse(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * The request's path, which picks the envelope: from the request line when the bytes Node failed on
 * start with one, else from the request whose headers were read (a body that stopped mid-way has no
 * raw packet, but it is a request for some API's path all the same).
 */
function requestPath(rawPacket: unknown, socket: Socket): string {
  if (!Buffer.isBuffer(rawPacket))
    return (currentResponse(socket) as (ServerResponse & { req?: { url?: string } }) | undefined)?.req?.url ?? '/';
  const firstLine = rawPacket.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[A-Z]+ (\S+)/.exec(firstLine)?.[1] ?? '/';
}

/** What the socket is answering already, if anything (Node's own check: never write into a response in flight). */
function responseInFlight(socket: Socket): boolean {
  return currentResponse(socket)?.headersSent === true;
}

/** Fastify's `clientErrorHandler` option, answering in the envelope of the API the request line names. */
export function createClientErrorResponder(envelopes: ErrorEnvelopes): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable && !responseInFlight(socket)) {
      const refusal = gatewayErrorFor(error);
      const body = JSON.stringify(envelopes.forUrl(requestPath(error.rawPacket, socket))(refusal));
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
