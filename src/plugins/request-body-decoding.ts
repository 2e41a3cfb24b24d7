/**
 * Request bodies sent compressed (`Content-Encoding: gzip`, `deflate` or `br`: clients compress large
 * agent histories) are decoded before the JSON parser reads them. The body limit holds for the decoded
 * size: fastify counts the bytes this hook's stream yields against `server.bodyLimitBytes` (and the
 * encoded ones, as `receivedEncodedLength`, against the Content-Length), so a small zip bomb is a 413 once
 * the limit is passed, the rest never inflated. Any other encoding is a 415 naming the ones accepted;
 * a body that is not valid data in its encoding is a 400.
 */
import type { FastifyInstance } from 'fastify';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

type Decoder = Transform & { receivedEncodedLength: number };

const decoders: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** An error fastify answers with its status (src/plugins/error-envelope.ts renders it). */
function clientError(status: number, code: string, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status, code });
}

function decodingStream(payload: Readable, encoding: string, create: () => Transform): Decoder {
  const decoder = Object.assign(create(), { receivedEncodedLength: 0 });
  payload.on('data', (chunk: Buffer) => {
    decoder.receivedEncodedLength += chunk.length;
  });
  // Not stream.pipeline: a bad body must not destroy the request, whose socket the 400 goes back on.
  payload.on('error', (error) => decoder.destroy(error));
  decoder.on('error', (error: Error & { statusCode?: number; code?: string }) => {
    if (error.statusCode !== undefined) return;
    error.statusCode = 400;
    error.code = 'invalid_content_encoding';
    error.message = `The body is not valid ${encoding} data (Content-Encoding: ${encoding}): ${error.message}`;
  });
  payload.pipe(decoder);
  return decoder;
}

export function registerRequestBodyDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const header = request.headers['content-encoding'];
    // Nearly every request: nothing to decode, nothing allocated.
    if (header === undefined) return done(null, payload);
    const encoding = header.trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return done(null, payload);
    const create = decoders[encoding];
    if (create === undefined)
      return done(
        clientError(
          415,
          'unsupported_content_encoding',
          `Content-Encoding '${header}' is not supported: send the body as is, or encoded with one of gzip, deflate, br.`,
        ),
      );
    done(null, decodingStream(payload, encoding, create));
  });
}
