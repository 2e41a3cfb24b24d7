/** The raw response written for Node's clientError, for the cases a test cannot provoke quickly over HTTP (408). */
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { toAnthropicErrorBody } from '../../routes/messages/anthropic-wire.js';
import { toOpenAiErrorBody } from '../../routes/shared/openai-wire.js';
import { createClientErrorResponder } from '../../src/plugins/client-error-response.js';
import { ErrorEnvelopes } from '../../src/plugins/error-envelope.js';

const envelopes = new ErrorEnvelopes(toOpenAiErrorBody);
envelopes.claim(/^\/v1\/messages/, toAnthropicErrorBody);
const writeClientErrorResponse = createClientErrorResponder(envelopes);

/** Hands `respond` the server side of a loopback connection and returns what the client side read. */
async function exchange(respond: (socket: Socket) => void): Promise<string> {
  // An http.Server listens for socket errors itself; destroy(error) would be unhandled here otherwise.
  const server = createServer((socket) => respond(socket.on('error', () => undefined)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    return await new Promise<string>((resolve, reject) => {
      const client = connect(port, '127.0.0.1');
      let received = '';
      client.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      client.on('close', () => resolve(received));
      client.on('error', reject);
    });
  } finally {
    server.close();
  }
}

function timeoutError(): Error {
  return Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
}

describe('createClientErrorResponder', () => {
  it('writes a request timeout as a whole 408 response in OpenAI’s envelope and closes', async () => {
    const text = await exchange((socket) => writeClientErrorResponse(timeoutError(), socket));
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 408 Request Timeout',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({
      error: { message: 'The request did not arrive in time.', type: 'invalid_request_error', param: null, code: 'request_timeout' },
    });
  });

  it('writes nothing on a connection reset', async () => {
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    const text = await exchange((socket) => {
      writeClientErrorResponse(reset, socket);
      socket.destroy();
    });
    expect(text).toBe('');
  });
});
