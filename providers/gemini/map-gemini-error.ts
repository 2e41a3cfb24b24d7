/**
 * Google's error body `{"error":{"code","message","status"}}` to a GatewayError: the HTTP status keeps
 * its meaning (errorFromUpstreamStatus), and Google's `status` (`INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`,
 * …) becomes the code. An error inside a 200 stream is the upstream failing mid-reply: a 502.
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
import { gatewayError, type GatewayError } from '../../src/core/index.js';
import type { UpstreamStatusReply } from '../../src/http/upstream-client.js';
import { errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { asRecord, readNumber, readString } from '../../src/http/read-loose-json.js';

/** Google names its errors in `error.status`; the shared mapper reads a string code from `error.code`. */
function withGoogleCode(body: unknown): unknown {
  const error = asRecord(asRecord(body)?.error);
  const status = readString(error, 'status');
  if (!error || status === undefined) return body;
  return { error: { ...error, code: status.toLowerCase() } };
}

export function mapGeminiStatusError(reply: UpstreamStatusReply): GatewayError {
  return errorFromUpstreamStatus({ ...reply, body: withGoogleCode(reply.body) });
}

export function mapGeminiStreamError(error: unknown, provider: string): GatewayError {
  const record = asRecord(error);
  const status = readString(record, 'status');
  const message = readString(record, 'message') ?? 'unknown error';
  const code = readNumber(record, 'code');
  // Google's own `status` names the error, as the Anthropic reader passes on an in-band error's type.
  return gatewayError('upstream_event_error', {
    code: status?.toLowerCase() ?? 'upstream_stream_error',
    message: `Upstream provider '${provider}' failed mid-reply${code === undefined ? '' : ` (${code})`}: ${message}`,
    upstreamBody: error,
  });
}
