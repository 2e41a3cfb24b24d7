/** Turns an Anthropic `error` payload that came with a 200 (an SSE event, or a whole body) into a GatewayError with an honest status. */
import { gatewayError, type GatewayError } from '../../src/core/index.js';
import { asRecord, readString } from '../../src/http/read-loose-json.js';

/**
 * Errors after the 200 arrive as `event: error` with the HTTP error envelope
 * (https://docs.anthropic.com/en/api/messages-streaming#error-events); `overloaded_error` is the
 * stream form of HTTP 529, which we report as 502 like any upstream 5xx.
 */
export function mapAnthropicStreamError(
  payload: unknown,
  provider: string,
  where: 'mid-stream' | 'in its reply' = 'mid-stream',
): GatewayError {
  const error = asRecord(asRecord(payload)?.error);
  const errorType = readString(error, 'type') ?? 'api_error';
  const upstreamMessage = readString(error, 'message') ?? 'stream error';
  switch (errorType) {
    case 'overloaded_error':
      return gatewayError('overloaded', {
        message: `Upstream provider '${provider}' is overloaded: ${upstreamMessage}`,
        upstreamBody: payload,
      });
    case 'rate_limit_error':
      return gatewayError('upstream_event_error', {
        status: 429,
        type: 'rate_limit_error',
        code: errorType,
        message: upstreamMessage,
        upstreamBody: payload,
      });
    default:
      return gatewayError('upstream_event_error', {
        code: errorType,
        message: `Upstream provider '${provider}' failed ${where} (${errorType}): ${upstreamMessage}`,
        upstreamBody: payload,
      });
  }
}
