/** Compressed request bodies: decoded (gzip, deflate, br), the body limit holding for the decoded size. */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let gateway: StartedGateway;
const bodyLimitBytes = 4096;

beforeAll(async () => {
  gateway = await startGateway({
    server: { bodyLimitBytes },
    providers: { local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1') },
  });
});

afterAll(async () => {
  await gateway?.close();
});

function post(body: Buffer | string, encoding: string): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    body,
  });
}

type ErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

// No model: the body was read when the error is about its fields (a 400 naming `model`).
const bodyWithoutModel = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });

describe('Content-Encoding on a request body', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('decodes %s before reading the JSON', async (encoding, compress) => {
    const response = await post(compress(Buffer.from(bodyWithoutModel)), encoding);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
  });

  it('answers a zip bomb with a 413 once the decoded body passes the limit', async () => {
    // 2 MiB of spaces inside a JSON string: sent, it is well under the limit; decoded, 500 times over it.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"model":"'), Buffer.alloc(2 * 1024 * 1024, 0x20), Buffer.from('"}')]));
    expect(bomb.length).toBeLessThan(bodyLimitBytes);
    const response = await post(bomb, 'gzip');
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorBody).error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
  });

  it('answers a body that is not gzip data with a 400 saying so', async () => {
    const response = await post(bodyWithoutModel, 'gzip');
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorBody;
    expect(error.code).toBe('invalid_content_encoding');
    expect(error.message).toContain('not valid gzip data');
  });

  it('answers an encoding it cannot decode with a 415 naming the ones it can', async () => {
    const response = await post(bodyWithoutModel, 'zstd');
    expect(response.status).toBe(415);
    const { error } = (await response.json()) as ErrorBody;
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_content_encoding' });
    expect(error.message).toContain('gzip, deflate, br');
  });

  it('reads identity as no encoding', async () => {
    const response = await post(bodyWithoutModel, 'identity');
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.param).toBe('model');
  });
});
