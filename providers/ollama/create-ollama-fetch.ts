/**
 * The `fetch` the shared `ollama` client uses: undici with the provider's pooled Agent, the calling
 * request's abort signal and forwarded headers (carried in AsyncLocalStorage, since the package has
 * no per-call options), upstream HTTP errors turned into GatewayErrors with their real body, and every
 * body read under the provider's limits (NDJSON streams per line, the rest whole).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fetch as undiciFetch, Headers, type Dispatcher, type RequestInit as UndiciRequestInit } from 'undici';
import type { UpstreamLimitSettings } from '../../src/config/config-types.js';
import { GatewayError } from '../../src/core/index.js';
import { limitFetchResponse, type FetchResponseLimit } from '../../src/http/limit-fetch-response.js';
import { headersForNonAnthropic } from '../../src/http/headers-for-non-anthropic.js';
import { errorFromUpstreamStatus } from '../../src/http/upstream-error.js';

export type OllamaRequestScope = {
  signal: AbortSignal;
  /** Client headers meant for the upstream; never override the provider's own headers. */
  headers?: Record<string, string>;
};

const requestScope = new AsyncLocalStorage<OllamaRequestScope>();

/** Runs `task` so that every upstream fetch it starts is bound to `scope`. */
export function withOllamaRequestScope<T>(scope: OllamaRequestScope, task: () => Promise<T>): Promise<T> {
  return requestScope.run(scope, task);
}

export type OllamaFetchOptions = {
  dispatcher: Dispatcher;
  provider: string;
  /** The provider's headers (config headers, Authorization); they override the package's defaults. */
  headers: Record<string, string>;
  limits: UpstreamLimitSettings;
};

/** Ollama streams as `application/x-ndjson` (https://github.com/ollama/ollama/blob/main/docs/api.md#streaming-responses). */
function bodyLimit(response: UndiciResponse, options: OllamaFetchOptions): FetchResponseLimit {
  const streamed = response.ok && (response.headers.get('content-type') ?? '').includes('ndjson');
  if (streamed) return { type: 'lines', maxBytes: options.limits.maxEventBytes, provider: options.provider };
  return { type: 'whole', maxBytes: options.limits.maxResponseBytes, provider: options.provider };
}

export function createOllamaFetch(options: OllamaFetchOptions): typeof fetch {
  const ollamaFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const scope = requestScope.getStore();
    const upstream = await undiciFetch(String(input instanceof Request ? input.url : input), {
      ...(init as UndiciRequestInit),
      headers: mergeHeaders(init?.headers, options.headers, scope?.headers),
      signal: combineSignals(init?.signal ?? undefined, scope?.signal),
      dispatcher: options.dispatcher,
    });
    const response = limitFetchResponse(upstream, bodyLimit(upstream, options));
    // Handled here rather than by the package: its ResponseError drops `retry-after` and the error
    // body's structure, and it console.logs while reading non-JSON error bodies.
    if (!response.ok) throw await readUpstreamError(response, options.provider);
    return response as unknown as Response;
  };
  return ollamaFetch as typeof fetch;
}

/**
 * Provider headers are applied here rather than given to the package, which silently drops any that
 * share a name with its defaults (`User-Agent`, `Accept`, `Content-Type`).
 */
function mergeHeaders(
  packageHeaders: RequestInit['headers'],
  providerHeaders: Record<string, string>,
  forwarded: Record<string, string> | undefined,
): Headers {
  const headers = new Headers(packageHeaders as ConstructorParameters<typeof Headers>[0]);
  for (const [name, value] of Object.entries(providerHeaders)) headers.set(name, value);
  for (const [name, value] of Object.entries(headersForNonAnthropic(forwarded) ?? {})) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return headers;
}

/** The package aborts through its own controller; the client's disconnect must abort too. */
function combineSignals(...candidates: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const signals = candidates.filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.length <= 1) return signals[0];
  return AbortSignal.any(signals);
}

type UndiciResponse = Awaited<ReturnType<typeof undiciFetch>>;

async function readUpstreamError(response: UndiciResponse, provider: string): Promise<GatewayError> {
  let body: unknown;
  try {
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  } catch (error) {
    // An error body past the cap is that failure; otherwise the status alone still tells the client what happened.
    if (GatewayError.isInstance(error)) return error;
    body = undefined;
  }
  return errorFromUpstreamStatus({ status: response.status, body, provider, retryAfter: response.headers.get('retry-after'), retryAfterMs: response.headers.get('retry-after-ms') });
}
