/**
 * POSTs a Chat Completions request (streamed, or whole) straight over the adapter's undici Agent.
 * The hot path skips the `openai` package: its fetch/web-stream layers and its SSE splitter (which
 * re-copies the buffer per event) cost more CPU per request than the rest of the gateway together.
 */
import type { Agent, Dispatcher } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { Cancellation } from '../../src/core/cancellation.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { version } from '../../src/version.js';

export type UpstreamResponseBody = Dispatcher.ResponseData['body'];

export type ChatCompletionConnection = {
  config: ProviderConfig;
  agent: Agent;
  origin: string;
  /** The base URL's path (e.g. `/v1`), to which `/chat/completions` is appended. */
  basePath: string;
  /** Headers shared by every streamed request of this upstream, built once. */
  headers: Record<string, string>;
  /** The same for requests whose reply is read whole (JSON, not SSE). */
  wholeHeaders: Record<string, string>;
};

export function createChatCompletionConnection(config: ProviderConfig, agent: Agent): ChatCompletionConnection {
  const url = new URL(config.baseUrl);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': `interlingua/${version}`,
  };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  const wholeHeaders = { ...headers, accept: 'application/json' };
  return { config, agent, origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), headers, wholeHeaders };
}

function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type SendOptions = {
  /** An AbortSignal, or the request's Cancellation (an emitter undici takes as it is, for less cost). */
  signal: AbortSignal | Cancellation;
  /** The body asks for one whole JSON reply (`"stream": false`), not SSE. */
  whole: boolean;
  forwardHeaders?: Record<string, string>;
};

/**
 * `body` is already serialised, so that a caller can splice in parts it serialised once.
 * Resolves with the body (SSE, or JSON when whole) once 2xx headers arrived; otherwise throws a
 * GatewayError (the error body is read).
 */
export async function sendChatCompletionRequest(connection: ChatCompletionConnection, body: string, options: SendOptions): Promise<UpstreamResponseBody> {
  const { config } = connection;
  const shared = options.whole ? connection.wholeHeaders : connection.headers;
  const headers = options.forwardHeaders ? { ...options.forwardHeaders, ...shared } : shared;
  let response;
  try {
    response = await connection.agent.request({
      origin: connection.origin,
      path: `${connection.basePath}/chat/completions`,
      method: 'POST',
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    throw errorFromTransportFailure(error, config.name);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
  const text = await response.body.text().catch(() => '');
  const retryAfter = response.headers['retry-after'];
  throw errorFromUpstreamStatus({
    status: response.statusCode,
    body: parseLoosely(text),
    provider: config.name,
    retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
  });
}
