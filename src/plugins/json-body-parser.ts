/**
 * The gateway's one body parser: JSON whatever the content type says (curl's -d sends form-encoded
 * content types), with recently seen large tool lists reused (see known-tool-lists.ts). Malformed JSON
 * is a 400, and so is JSON nested deeper than the configured depth.
 */
import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify';
import { findTooDeepValue, tooDeepError } from '../core/find-too-deep-value.js';
import { KnownToolLists } from './known-tool-lists.js';
import type { BodyDeadlines } from './request-body-deadline.js';

export type JsonBodyParserOptions = {
  /** Deepest nesting accepted (the body object is level 1); see `server.maxJsonDepth`. */
  maxDepth: number;
  knownToolLists?: KnownToolLists;
  /** Told that a request's body is in (its receive deadline is dropped). */
  bodyDeadlines?: BodyDeadlines;
};

/**
 * A media type fastify can parse (`type/subtype`, then parameters), as its ContentType class checks it.
 * Fastify answers any other Content-Type (an empty one, `json`, `;`) with a 415 before a parser runs.
 */
const mediaTypePattern = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

/**
 * The body is JSON whatever the Content-Type says, an unparseable one included: dropped, it reaches the
 * catch-all parser below. Called by the request intake (src/plugins/request-intake.ts), before fastify
 * picks a parser.
 */
export function dropUnparseableContentType(request: FastifyRequest): void {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !mediaTypePattern.test(contentType)) delete request.headers['content-type'];
}

export function registerJsonBodyParser(app: FastifyInstance, options: JsonBodyParserOptions): void {
  const knownToolLists = options.knownToolLists ?? new KnownToolLists({ maximumDepth: options.maxDepth });
  app.removeAllContentTypeParsers();
  const { bodyDeadlines } = options;
  const parse: FastifyBodyParser<string> = (request, body, done) => {
    bodyDeadlines?.arrived(request);
    if (body === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = knownToolLists.parse(body);
    } catch (error) {
      const syntaxError = error as Error & { statusCode?: number; code?: string };
      syntaxError.statusCode = 400;
      syntaxError.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      return done(syntaxError);
    }
    const tooDeep = findTooDeepValue(parsed, options.maxDepth);
    if (tooDeep !== undefined) return done(tooDeepError(tooDeep, options.maxDepth));
    done(null, parsed);
  };
  // The same parser under its own type first: fastify remembers the parser it found for a registered
  // type, but looks the catch-all up again for every request (its Content-Type parsed into an object
  // and a Map each time), and nearly every client sends application/json.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  app.addContentTypeParser('*', { parseAs: 'string' }, parse);
}
