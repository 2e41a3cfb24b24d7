/**
 * The gateway's one body parser: JSON whatever the content type says (curl's -d sends form-encoded
 * content types), with recently seen large tool lists reused (see known-tool-lists.ts). Malformed JSON
 * is fastify's own 400.
 */
import type { FastifyInstance } from 'fastify';
import { KnownToolLists } from './known-tool-lists.js';

export function registerJsonBodyParser(app: FastifyInstance, knownToolLists: KnownToolLists = new KnownToolLists()): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, knownToolLists.parse(body as string));
    } catch (error) {
      const syntaxError = error as Error & { statusCode?: number; code?: string };
      syntaxError.statusCode = 400;
      syntaxError.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(syntaxError);
    }
  });
}
