/**
 * The Gemini adapter's one way to its upstream: `generateContent` read whole, `streamGenerateContent`
 * as SSE, and GETs (the model list), over the adapter's undici Agent, with the key in `x-goog-api-key`.
 * https://ai.google.dev/api/generate-content
 */
import type { Agent, Dispatcher } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { Cancellation } from '../../src/core/cancellation.js';
import { GatewayError } from '../../src/core/index.js';
import { headersForNonAnthropic } from '../../src/http/headers-for-non-anthropic.js';
import { readCappedText } from '../../src/http/read-capped-text.js';
import { requestWholeBody } from '../../src/http/request-whole-body.js';
import { errorFromTransportFailure } from '../../src/http/upstream-error.js';
import { version } from '../../src/version.js';
import { parseJsonLoosely } from '../anthropic/read-loose-json.js';
import { mapGeminiStatusError } from './map-gemini-error.js';

export type GeminiConnection = {
  config: ProviderConfig;
  agent: Agent;
  origin: string;
  /** The base URL's path without a trailing slash (empty for the host root). */
  basePath: string;
  headers: Record<string, string>;
};

export type GeminiCall = {
  /** Under the base URL, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  path: string;
  body?: unknown;
  forwardHeaders?: Record<string, string>;
  /** An AbortSignal, or the request's Cancellation (an emitter undici takes as it is, for less cost). */
  signal: AbortSignal | Cancellation;
};

export type GeminiStreamBody = Dispatcher.ResponseData['body'];

export function createGeminiConnection(config: ProviderConfig, agent: Agent): GeminiConnection {
  const url = new URL(config.baseUrl);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `interlingua/${version}` };
  if (config.apiKey) headers['x-goog-api-key'] = config.apiKey;
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  return { config, agent, origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), headers };
}

function headersFor(connection: GeminiConnection, call: GeminiCall): Record<string, string> {
  const forwarded = headersForNonAnthropic(call.forwardHeaders);
  return forwarded ? { ...forwarded, ...connection.headers } : connection.headers;
}

function wholeLimit(connection: GeminiConnection): { maxBytes: number; provider: string } {
  return { maxBytes: connection.config.limits.maxResponseBytes, provider: connection.config.name };
}

function statusError(connection: GeminiConnection, status: number, text: string, retryAfter: string | undefined): GatewayError {
  return mapGeminiStatusError({ status, body: parseJsonLoosely(text) ?? text, provider: connection.config.name, retryAfter });
}

/** A body read whole: resolves with the 2xx body's text; otherwise throws a GatewayError. */
export async function requestGeminiWhole(connection: GeminiConnection, call: GeminiCall): Promise<string> {
  let response;
  try {
    response = await requestWholeBody(connection.agent, {
      origin: connection.origin,
      path: `${connection.basePath}${call.path}`,
      method: call.body === undefined ? 'GET' : 'POST',
      headers: headersFor(connection, call),
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: call.signal,
      limit: wholeLimit(connection),
    });
  } catch (error) {
    throw errorFromTransportFailure(error, connection.config.name, call.signal);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
  throw statusError(connection, response.statusCode, response.body, response.header('retry-after'));
}

/** A streamed POST: resolves with the SSE body once 2xx headers arrived; otherwise throws a GatewayError. */
export async function requestGeminiStream(connection: GeminiConnection, call: GeminiCall): Promise<GeminiStreamBody> {
  let response;
  try {
    response = await connection.agent.request({
      origin: connection.origin,
      path: `${connection.basePath}${call.path}`,
      method: 'POST',
      headers: { ...headersFor(connection, call), accept: 'text/event-stream' },
      body: JSON.stringify(call.body),
      signal: call.signal,
    });
  } catch (error) {
    throw errorFromTransportFailure(error, connection.config.name, call.signal);
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
  const text = await readCappedText(response.body, wholeLimit(connection)).catch((error: unknown) => {
    if (GatewayError.isInstance(error)) throw error;
    return '';
  });
  const retryAfter = response.headers['retry-after'];
  throw statusError(connection, response.statusCode, text, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
}
