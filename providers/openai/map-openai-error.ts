/** Errors thrown by the `openai` package → GatewayErrors with honest statuses. */
import { APIConnectionTimeoutError, APIError } from 'openai';
import { GatewayError, gatewayError } from '../../src/core/gateway-error.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';

export function mapOpenAiError(error: unknown, provider: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) return gatewayError('upstream_timeout', { message: `Upstream provider '${provider}' timed out`, cause: error });
  if (error instanceof APIError && typeof error.status === 'number') {
    return errorFromUpstreamStatus({
      status: error.status,
      // APIError.error is the body's `error` member (an object for OpenAI, a string for Ollama /v1).
      body: { error: error.error ?? error.message },
      provider,
      retryAfter: error.headers?.get('retry-after') ?? null,
      retryAfterMs: error.headers?.get('retry-after-ms') ?? null,
    });
  }
  if (error instanceof APIError && error.error !== undefined && !(error.cause instanceof Error)) {
    // An in-band `data: {"error": …}` frame: the upstream failed mid-stream.
    return gatewayError('upstream_stream_error', { message: `Upstream provider '${provider}' failed mid-stream: ${error.message}`, upstreamBody: error.error });
  }
  return errorFromTransportFailure(error instanceof APIError && error.cause ? error.cause : error, provider);
}
