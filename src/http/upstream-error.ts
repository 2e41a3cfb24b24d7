/**
 * Turns upstream failures into GatewayErrors with honest statuses: an upstream's 4xx, 429 and 5xx are
 * passed on with their status (DESIGN.md: "429/5xx from upstream passed on"), 4xx and 429 with the
 * upstream's message, 5xx with a message naming the provider; connection failures are 502, timeouts 504.
 * A 401 or 403 is the exception: the gateway's own credentials were refused, a 502 (credentialsRefused).
 */
import { GatewayError, gatewayError, type GatewayErrorType } from '../core/gateway-error.js';
import type { Cancellation } from '../core/cancellation.js';
import { contextOverflowCode } from '../core/context-overflow-code.js';
import { isContextOverflow } from './context-overflow.js';

/**
 * The body an Ollama error carries inside its text: Ollama runs GGUF models on a llama-server and passes a
 * refusal of that server on as its own `{"error": "<llama-server's JSON body>"}`, with the same status
 * (seen from Ollama 0.34 and 0.40 for a prompt longer than the context with `truncate: false`:
 * `{"error":"{\"error\":{\"code\":400,\"message\":\"request (8889 tokens) exceeds the available context
 * size (4096 tokens), …\",\"type\":\"exceed_context_size_error\",…}}"}`). Undefined for any other text.
 */
function nestedErrorBody(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{"error"')) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && 'error' in parsed ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the human message out of OpenAI, Anthropic or Ollama error bodies. */
export function readUpstreamErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') {
    const nested = nestedErrorBody(error);
    return (nested && readUpstreamErrorMessage(nested)) ?? error;
  }
  if (error && typeof error === 'object') {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  if (typeof record.message === 'string') return record.message;
  if (typeof record.detail === 'string') return record.detail;
  return undefined;
}

/**
 * The error object of an upstream body: OpenAI's, Anthropic's and newer vLLM's `{"error": {…}}`, or the
 * body itself where it is flat, as older vLLM's and SGLang's `{"object": "error", "message", "type", "param",
 * "code": 400}` (vllm/entrypoints/openai/protocol.py `ErrorResponse`), or llama-server's inside Ollama's text.
 */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  if (record.error && typeof record.error === 'object') return record.error as Record<string, unknown>;
  const nested = typeof record.error === 'string' ? nestedErrorBody(record.error) : undefined;
  if (nested) return errorObject(nested);
  return record.object === 'error' ? record : undefined;
}

/**
 * What the upstream calls its error: OpenAI's `code`, else the `type` (Anthropic's `overloaded_error`,
 * llama-server's `exceed_context_size_error`), for telling a context overflow.
 */
function readUpstreamErrorKind(error: Record<string, unknown> | undefined): string | null {
  if (typeof error?.code === 'string') return error.code;
  return typeof error?.type === 'string' ? error.type : null;
}

/**
 * The code the client is given: OpenAI's string `code`; Anthropic's `type` where the body has no `code` at
 * all. vLLM, SGLang and llama-server put the HTTP status in `code` (`"code": 400`) and a class name in `type`
 * (`BadRequestError`): neither is a code a client can act on, so none is passed on and the status says it.
 */
function readUpstreamErrorCode(error: Record<string, unknown> | undefined): string | null {
  if (typeof error?.code === 'string') return error.code;
  if (error?.code !== undefined) return null;
  return typeof error?.type === 'string' ? error.type : null;
}

/** OpenAI's and vLLM's `param`: the request field the error is about. */
function readUpstreamErrorParam(error: Record<string, unknown> | undefined): string | null {
  return typeof error?.param === 'string' ? error.param : null;
}

function typeForStatus(status: number): GatewayErrorType {
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status < 500) return 'invalid_request_error';
  return 'upstream_error';
}

/**
 * An upstream's 401 or 403 refused the gateway's own credentials for it (a provider's key, token or role:
 * config; no client credential is ever sent upstream), unless a 403 is about the content (refusesContent). Passed on as a 401 it would read as the client's
 * gateway key refused (OpenAI's SDKs raise AuthenticationError, and agents ask their user for a new key),
 * so it is the gateway failing: a 502 with its own code. The upstream's words stay out of the message, as
 * they may quote the key (OpenAI: "Incorrect API key provided: sk-proj-****mIYA", a short key whole); they
 * stay in `upstreamBody` for the log. `upstreamStatus` is kept, so retries and `fallbackOn` see the 401 or
 * 403 as before.
 */
export const credentialsRefusedCode = 'upstream_authentication_failed';

/**
 * A 403 about what the request says rather than who sent it, which keeps its meaning (the client's to change):
 * OpenRouter's moderation, whose `error.metadata` carries `reasons` and `flagged_input`, and its guardrail
 * blocks (https://openrouter.ai/docs/api/reference/errors-and-debugging: "403: Forbidden (insufficient
 * permissions, guardrail block, or moderation flag)"), and other hosts' content filters in those words.
 */
const contentRefusalWords = /\b(?:flagged|moderation|guardrails?|content (?:policy|filter))\b/i;

function refusesContent(error: Record<string, unknown> | undefined, message: string): boolean {
  const metadata = error?.metadata;
  if (metadata && typeof metadata === 'object' && ('flagged_input' in metadata || 'reasons' in metadata)) return true;
  return contentRefusalWords.test(message);
}

function credentialsRefused(status: number, body: unknown, provider: string): GatewayError {
  return gatewayError('upstream_authentication_failed', {
    message:
      `Upstream provider '${provider}' refused the gateway's credentials for it (HTTP ${status}). ` +
      "This is the gateway's configuration, not the client's key; the gateway's log has the provider's reason.",
    upstreamStatus: status,
    upstreamBody: body,
  });
}

/** Builds the client-facing error for an upstream HTTP error status. */
export function errorFromUpstreamStatus(options: {
  status: number;
  body: unknown;
  provider: string;
  retryAfter?: string | null;
  /** `retry-after-ms` (OpenAI and Azure send it): for the gateway's retries, not passed on. */
  retryAfterMs?: string | null;
}): GatewayError {
  const { body, provider } = options;
  const upstreamMessage = readUpstreamErrorMessage(body) ?? `HTTP ${options.status}`;
  const error = errorObject(body);
  if (options.status === 401 || (options.status === 403 && !refusesContent(error, upstreamMessage)))
    return credentialsRefused(options.status, body, provider);
  // A prompt that does not fit gets OpenAI's code whatever the server called it, so clients of every API can tell.
  const overflow = isContextOverflow(options.status, upstreamMessage, readUpstreamErrorKind(error));
  // Some servers answer an overflow with a 500 (context-overflow.ts): it is the 400 it means, to the client
  // (its own request to fix) and to retries and fallbacks (the same request fails the same way again).
  const status = overflow && options.status >= 500 ? 400 : options.status;
  const passThrough = status >= 400 && status < 500;
  const code = overflow ? contextOverflowCode : readUpstreamErrorCode(error);
  // A 503 or Anthropic's 529 says "busy, come back", a 500 "it broke there": a client reads that from the
  // status, so it is kept. Only a status that is no error at all (a stray 1xx-3xx) becomes a 502.
  const errorStatus = status >= 400 && status < 600;
  return gatewayError('upstream_http_error', {
    status: errorStatus ? status : 502,
    type: typeForStatus(status),
    code: code ?? (passThrough ? null : `upstream_http_${status}`),
    message: passThrough ? upstreamMessage : `Upstream provider '${provider}' failed with HTTP ${status}: ${upstreamMessage}`,
    param: passThrough ? readUpstreamErrorParam(error) : null,
    retryAfter: options.retryAfter ?? undefined,
    retryAfterMs: options.retryAfterMs ?? undefined,
    upstreamStatus: status,
    upstreamBody: body,
  });
}

/**
 * An error a server sends inside a 200 (a whole `{"error": …}` body, an SSE `data: {"error": …}` frame, an
 * NDJSON error line) that says the prompt does not fit the context: the request itself failed, so it is the
 * 400 with OpenAI's overflow code that the same refusal as an HTTP error is, the server's words kept. LM
 * Studio answers an overflow this way (lmstudio-ai/lmstudio-bug-tracker#2322: "the response error message
 * has a 200 status code vs a 400"). Undefined for any other error.
 */
export function errorFromInBandOverflow(body: unknown): GatewayError | undefined {
  const message = readUpstreamErrorMessage(body);
  if (message === undefined || !isContextOverflow(400, message, readUpstreamErrorKind(errorObject(body)))) return undefined;
  return gatewayError('upstream_event_error', {
    status: 400,
    type: 'invalid_request_error',
    code: contextOverflowCode,
    message,
    upstreamBody: body,
  });
}

/** A 2xx body (or one NDJSON line of it) that JSON.parse refused: the upstream broke its own protocol. */
export function errorFromUnreadableJson(provider: string, error: unknown): GatewayError {
  return gatewayError('upstream_bad_response', {
    message: `Upstream provider '${provider}' sent a reply that is not JSON: ${(error as Error).message}`,
    cause: error,
  });
}

const timeoutCodes: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('UND_ERR') || code.startsWith('E'))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether an error (or one of its causes) is an upstream timeout. */
export function isTimeoutError(error: unknown): boolean {
  const code = errorCode(error);
  if (code && timeoutCodes.has(code)) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const name = (current as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'APIConnectionTimeoutError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a request cancelled by its caller failed with: the client went away (logged as 499, which nobody
 * reads but the log), or the cancellation carried its own reason (a timeout, a shutdown's GatewayError).
 */
export function errorFromAbort(reason: unknown): GatewayError {
  if (GatewayError.isInstance(reason)) return reason;
  if (isTimeoutError(reason))
    return gatewayError('upstream_timeout', { message: 'The request timed out before the upstream finished', cause: reason });
  return gatewayError('client_closed_request', { message: 'The client closed the request before the upstream finished', cause: reason });
}

/**
 * Maps a transport failure (no HTTP status) to 502, or 504 for timeouts. Keeps GatewayErrors. When the
 * caller's cancellation fired, whatever undici threw is its consequence, not an upstream failure.
 */
export function errorFromTransportFailure(error: unknown, provider: string, cancellation?: Cancellation): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (cancellation?.aborted) return errorFromAbort(cancellation.reason);
  const detail = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
  if (isTimeoutError(error))
    return gatewayError('upstream_timeout', { message: `Upstream provider '${provider}' timed out (${detail})`, cause: error });
  return gatewayError('upstream_unavailable', { message: `Upstream provider '${provider}' is unreachable (${detail})`, cause: error });
}
