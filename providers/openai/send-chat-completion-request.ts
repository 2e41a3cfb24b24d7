/**
 * POSTs a Chat Completions request (streamed, or for one whole reply) straight over the adapter's undici Agent.
 * The hot path skips the `openai` package: its fetch/web-stream layers and its SSE splitter (which
 * re-copies the buffer per event) cost more CPU per request than the rest of the gateway together.
 */
import type { Agent, Dispatcher } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { Cancellation } from '../../src/core/cancellation.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { readCappedText } from '../../src/http/read-capped-text.js';
import { requestWholeBody } from '../../src/http/request-whole-body.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { version } from '../../src/version.js';

export type UpstreamResponseBody = Dispatcher.ResponseData['body'];

export type ChatCompletionConnection = {
  config: ProviderConfig;
  agent: Agent;
  origin: string;
  /** The base URL's path (e.g. `/v1`) with `/chat/completions` appended. */
  path: string;
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
  return { config, agent, origin: url.origin, path: `${url.pathname.replace(/\/+$/, '')}/chat/completions`, headers, wholeHeaders };
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
  forwardHeaders?: Record<string, string>;
};

function headersFor(shared: Record<string, string>, options: SendOptions): Record<string, string> {
  return options.forwardHeaders ? { ...options.forwardHeaders, ...shared } : shared;
}

/** The POST both request kinds make; `shared` picks the streamed or the whole-reply headers. */
function postOptions(connection: ChatCompletionConnection, shared: Record<string, string>, body: string | Buffer, options: SendOptions) {
  return { origin: connection.origin, path: connection.path, method: 'POST' as const, headers: headersFor(shared, options), body, signal: options.signal };
}

/** Whole bodies (a reply, an error body) are read only up to the provider's cap. */
function wholeLimit(connection: ChatCompletionConnection): { maxBytes: number; provider: string } {
  return { maxBytes: connection.config.limits.maxResponseBytes, provider: connection.config.name };
}

function statusError(connection: ChatCompletionConnection, status: number, header: (name: string) => string | undefined, text: string): GatewayError {
  return errorFromUpstreamStatus({ status, body: parseLoosely(text), provider: connection.config.name, retryAfter: header('retry-after'), retryAfterMs: header('retry-after-ms') });
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A streamed request (`body` already serialised, so that a caller can splice in parts it serialised
 * once). Resolves with the SSE body once 2xx headers arrived; otherwise throws a GatewayError (the
 * error body is read).
 */
export async function sendChatCompletionRequest(connection: ChatCompletionConnection, body: string | Buffer, options: SendOptions): Promise<UpstreamResponseBody> {
  let response;
  try {
    response = await connection.agent.request(postOptions(connection, connection.headers, body, options));
  } catch (error) {
    throw errorFromTransportFailure(error, connection.config.name, options.signal);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
  const text = await readCappedText(response.body, wholeLimit(connection)).catch((error: unknown) => {
    if (GatewayError.isInstance(error)) throw error;
    return '';
  });
  throw statusError(connection, response.statusCode, (name) => firstValue(response.headers[name]), text);
}

/** A request for one whole reply (`"stream": false`): resolves with the 2xx body's text; otherwise throws a GatewayError. */
export async function fetchChatCompletion(connection: ChatCompletionConnection, body: string | Buffer, options: SendOptions): Promise<string> {
  let response;
  try {
    response = await requestWholeBody(connection.agent, { ...postOptions(connection, connection.wholeHeaders, body, options), limit: wholeLimit(connection) });
  } catch (error) {
    throw errorFromTransportFailure(error, connection.config.name, options.signal);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
  throw statusError(connection, response.statusCode, (name) => response.header(name), response.body);
}
