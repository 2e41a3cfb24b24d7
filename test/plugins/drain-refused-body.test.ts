/** A body refused while still arriving is read to its end, so the client reads the 413 rather than a reset. */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let gateway: StartedGateway;

beforeAll(async () => {
  gateway = await startGateway({
    server: { bodyLimitBytes: 2048 },
    providers: { local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') },
  });
});

afterAll(async () => {
  await gateway?.close();
});

/** Resolves with what arrives until `done` says it is enough; rejects on a reset or an early close. */
function readUntil(socket: Socket, done: (received: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (done(received)) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(received);
      }
    };
    const onClose = () => reject(new Error(`closed after: ${JSON.stringify(received.slice(0, 200))}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', reject);
  });
}

const wholeResponse = (text: string) => {
  const [head, body] = text.split('\r\n\r\n', 2);
  const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1]);
  return body !== undefined && Buffer.byteLength(body) >= length;
};

describe('a body refused while it is still arriving', () => {
  it('is read to its end without closing the connection, which then serves the next request', async () => {
    const port = Number(new URL(gateway.baseUrl).port);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const bodyLength = 256 * 1024;
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bodyLength}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(8192, 0x20));
    const refusal = await readUntil(socket, wholeResponse);
    expect(refusal).toMatch(/^HTTP\/1\.1 413 /);
    expect(refusal.toLowerCase()).not.toContain('connection: close');
    // The rest of the body, as a client that did not wait for an answer sends it.
    socket.write(Buffer.alloc(bodyLength - 8192, 0x20));
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const next = await readUntil(socket, wholeResponse);
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});
