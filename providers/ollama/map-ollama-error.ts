/** Anything thrown while talking to Ollama → the GatewayError the client sees. */
import { GatewayError, gatewayError, toGatewayError } from '../../src/core/index.js';
import { errorFromAbort, errorFromTransportFailure, errorFromUpstreamStatus, isTimeoutError } from '../../src/http/upstream-error.js';

export type OllamaErrorContext = { provider: string; signal: AbortSignal };

export function mapOllamaError(error: unknown, context: OllamaErrorContext): GatewayError {
  const { provider, signal } = context;
  if (GatewayError.isInstance(error)) return error;
  // Checked first: once the caller aborted, whatever undici threw is a consequence, not the cause.
  if (signal.aborted) return errorFromAbort(signal.reason);
  if (isResponseError(error)) {
    return errorFromUpstreamStatus({ status: error.status_code, body: { error: error.error }, provider });
  }
  if (isTransportError(error)) return errorFromTransportFailure(error, provider);
  // The package parses bodies and NDJSON lines with JSON.parse: a reply cut mid-JSON, or not JSON at all.
  if (error instanceof SyntaxError) {
    return gatewayError('upstream_bad_response', { message: `Upstream provider '${provider}' sent a reply that is not JSON: ${error.message}`, cause: error });
  }
  // The package turns an in-stream `{"error": …}` line, and a body that ends without `done`, into a plain Error.
  if (error instanceof Error && error.constructor === Error) {
    return gatewayError('upstream_stream_error', { message: `Upstream provider '${provider}' failed mid-stream: ${error.message}`, cause: error });
  }
  return toGatewayError(error);
}

/** The package's HTTP error (kept for safety: our fetch already throws GatewayErrors for non-2xx). */
function isResponseError(error: unknown): error is Error & { status_code: number; error: string } {
  return (
    error instanceof Error &&
    error.name === 'ResponseError' &&
    typeof (error as { status_code?: unknown }).status_code === 'number'
  );
}

/** undici reports network failures as `TypeError('fetch failed' | 'terminated')` with the reason in `cause`. */
function isTransportError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || isTimeoutError(error)) return true;
  return error instanceof TypeError && error.cause !== undefined;
}
