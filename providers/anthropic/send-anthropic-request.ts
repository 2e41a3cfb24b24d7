/** Sends one HTTP call to the Anthropic API over the adapter's undici Agent, mapping failures. */
import { request as undiciRequest, type Agent, type Dispatcher } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { Cancellation } from '../../src/core/cancellation.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { readCappedText, type ReadLimit } from '../../src/http/read-capped-text.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { buildAnthropicHeaders } from './build-anthropic-headers.js';
import { parseJsonLoosely } from './read-loose-json.js';

/** What every call of one adapter shares. */
export type AnthropicConnection = {
  config: ProviderConfig;
  agent: Agent;
  /** `config.baseUrl` without a trailing slash. */
  baseUrl: string;
};

export type AnthropicCall = {
  method: 'GET' | 'POST';
  /** Path and query under the host root, e.g. `/v1/messages`. */
  path: string;
  body?: unknown;
  forwardHeaders?: Record<string, string>;
  /** An AbortSignal, or the request's Cancellation (an emitter undici takes as it is, for less cost). */
  signal: AbortSignal | Cancellation;
};

/** A body read whole (a message, a model page, an error body) is read only up to the provider's cap. */
export function wholeBodyLimit(connection: AnthropicConnection): ReadLimit {
  return { maxBytes: connection.config.limits.maxResponseBytes, provider: connection.config.name };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Resolves with the response once 2xx headers arrived; otherwise throws a GatewayError (the
 * error body is always read, so the connection returns to the pool).
 */
export async function sendAnthropicRequest(
  connection: AnthropicConnection,
  call: AnthropicCall,
): Promise<Dispatcher.ResponseData> {
  const { config } = connection;
  // Built before the try: a failure here is the gateway's own (a 500), never "upstream unreachable".
  const headers = buildAnthropicHeaders(config, { forwardHeaders: call.forwardHeaders, json: call.body !== undefined });
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  let response: Dispatcher.ResponseData;
  try {
    response = await undiciRequest(`${connection.baseUrl}${call.path}`, {
      method: call.method,
      headers,
      body,
      signal: call.signal,
      dispatcher: connection.agent,
    });
  } catch (error) {
    throw errorFromTransportFailure(error, config.name, call.signal);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  const text = await readCappedText(response.body, wholeBodyLimit(connection)).catch((error: unknown) => {
    if (GatewayError.isInstance(error)) throw error;
    return '';
  });
  throw errorFromUpstreamStatus({
    status: response.statusCode,
    body: parseJsonLoosely(text) ?? text,
    provider: config.name,
    retryAfter: firstHeader(response.headers['retry-after']),
    retryAfterMs: firstHeader(response.headers['retry-after-ms']),
  });
}
