/**
 * Fastify's own error codes (`FST_ERR_CTP_INVALID_JSON_BODY`) name its internals, not what the client did
 * wrong, and change between fastify versions: a client must not come to depend on them. Each fastify 4xx
 * leaves with a public code naming the fault, in the style of OpenAI's (`invalid_json` is also what the
 * Responses WebSocket says for an unparseable frame).
 */

const publicCodes: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_content_length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_BAD_URL: 'invalid_url',
  FST_ERR_ASYNC_CONSTRAINT: 'invalid_request',
};

/** Codes for a fastify error this table does not know, by its status. */
const codesByStatus: Readonly<Record<number, string>> = {
  413: 'request_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
};

/** The code a fastify 4xx is answered with: a public name, never an `FST_ERR_…` one. */
export function publicErrorCode(fastifyCode: string | undefined, status: number): string | null {
  if (fastifyCode !== undefined && !fastifyCode.startsWith('FST_')) return fastifyCode;
  return (fastifyCode !== undefined ? publicCodes[fastifyCode] : undefined) ?? codesByStatus[status] ?? 'invalid_request';
}
