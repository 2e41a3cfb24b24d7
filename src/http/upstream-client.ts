/**
 * The one way a provider adapter talks to its upstream: one pooled undici Agent per provider (its
 * timeouts and pool size), bodies read whole up to `limits.maxResponseBytes` or streamed as SSE or
 * NDJSON with each event capped at `limits.maxEventBytes`, upstream statuses and transport failures
 * mapped to GatewayErrors (keeping the upstream's status, message and retry-after), and the request's
 * Cancellation aborting it at any point. Retries are not here: they belong before the first byte
 * reaches the client, which only the pipeline knows (src/pipeline/stream-with-retries.ts).
 *
 * Usage, in an adapter (headers are the call's complete set, built once per upstream where possible):
 *
 *   const client = new UpstreamClient(config);   // config: the provider's ProviderConfig
 *   // A body read whole: resolves with the 2xx body's text, rejects with a GatewayError otherwise.
 *   const text = await client.readText({ path: '/models/x:generateContent', headers, json: body, cancellation: context.cancellation });
 *   // A stream: resolves on 2xx headers; the events come one array per upstream read.
 *   const stream = await client.openStream({ path: '/models/x:streamGenerateContent?alt=sse', headers, json: body, cancellation: context.cancellation });
 *   for await (const events of stream.serverSentEvents('flush')) { … stream.complete() once the reply is whole … }
 *   await client.close();                         // on shutdown
 *
 * `path` is appended to the base URL's path (`/chat/completions` under `…/v1`, `/v1/messages` under a host root).
 */
import type { Agent } from 'undici';
import type { ProviderConfig } from '../config/config-types.js';
import type { Cancellation } from '../core/cancellation.js';
import { GatewayError } from '../core/gateway-error.js';
import { readCappedText } from './read-capped-text.js';
import { SendCountingDispatcher } from './send-counting-dispatcher.js';
import { requestWholeBody, type WholeResponse } from './request-whole-body.js';
import { createUpstreamAgent } from './upstream-agent.js';
import { errorFromTransportFailure, errorFromUnreadableJson, errorFromUpstreamStatus } from './upstream-error.js';
import { UpstreamStream } from './upstream-stream.js';

export type UpstreamCall = {
  /** Under the base URL's path, with any query. */
  path: string;
  /** POST when there is a body, GET otherwise. */
  method?: 'GET' | 'POST';
  /** Sent as they are: the client adds none (a content-type for `json` included). */
  headers: Record<string, string>;
  /** An already serialised body (a caller may splice in parts it serialised once) … */
  body?: string | Buffer;
  /** … or a value serialised here. */
  json?: unknown;
  cancellation?: Cancellation;
};

function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function serialise(call: UpstreamCall): string | Buffer | undefined {
  return call.body ?? (call.json === undefined ? undefined : JSON.stringify(call.json));
}

function methodOf(call: UpstreamCall, body: unknown): 'GET' | 'POST' {
  return call.method ?? (body === undefined ? 'GET' : 'POST');
}

/** What an error status carries; a provider whose error bodies differ (Gemini) maps them itself. */
export type UpstreamStatusReply = Parameters<typeof errorFromUpstreamStatus>[0];

export type UpstreamClientOptions = {
  /** Defaults to errorFromUpstreamStatus (OpenAI-style `{"error":{"message","code"}}` bodies). */
  errorFromStatus?: (reply: UpstreamStatusReply) => GatewayError;
};

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export class UpstreamClient {
  readonly provider: string;
  private readonly agent: Agent;
  /** The agent, counting each streamed request as sent when undici writes it (send-counting-dispatcher.ts). */
  private readonly streamDispatcher: SendCountingDispatcher;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly limit: { maxBytes: number; provider: string };
  private readonly errorFromStatus: (reply: UpstreamStatusReply) => GatewayError;

  constructor(
    private readonly config: ProviderConfig,
    options: UpstreamClientOptions = {},
  ) {
    this.errorFromStatus = options.errorFromStatus ?? errorFromUpstreamStatus;
    const url = new URL(config.baseUrl);
    this.provider = config.name;
    this.agent = createUpstreamAgent(config);
    this.streamDispatcher = new SendCountingDispatcher(this.agent);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.limit = { maxBytes: config.limits.maxResponseBytes, provider: config.name };
  }

  /** The 2xx body's text, read whole (the fast path: no Readable, no header object); otherwise a GatewayError. */
  async readText(call: UpstreamCall): Promise<string> {
    // Serialised before the try: a body that cannot be is the gateway's own failure (a 500), never "upstream unreachable".
    const body = serialise(call);
    const request = {
      origin: this.origin,
      path: `${this.basePath}${call.path}`,
      method: methodOf(call, body),
      headers: call.headers,
      body,
      signal: call.cancellation,
      limit: this.limit,
    };
    let response: WholeResponse;
    try {
      response = await requestWholeBody(this.agent, request);
    } catch (error) {
      throw errorFromTransportFailure(error, this.provider, call.cancellation);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
    throw this.statusError(response.statusCode, (name) => response.header(name), response.body);
  }

  /** The 2xx body parsed as JSON; a body that is not JSON is a 502. */
  async readJson(call: UpstreamCall): Promise<unknown> {
    const text = await this.readText(call);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw errorFromUnreadableJson(this.provider, error);
    }
  }

  /** Resolves once 2xx headers arrived; otherwise reads the error body (capped) and rejects with a GatewayError. */
  async openStream(call: UpstreamCall): Promise<UpstreamStream> {
    const { cancellation } = call;
    const body = serialise(call);
    // undici takes the Cancellation itself as the signal (an EventEmitter-like one).
    const request = {
      origin: this.origin,
      path: `${this.basePath}${call.path}`,
      method: methodOf(call, body),
      headers: call.headers,
      body,
      signal: cancellation,
    };
    let response;
    try {
      response = await this.streamDispatcher.request(request);
    } catch (error) {
      throw errorFromTransportFailure(error, this.provider, cancellation);
    }
    const { statusCode, headers } = response;
    if (statusCode >= 200 && statusCode < 300) {
      return new UpstreamStream(response.body, { provider: this.provider, maxEventBytes: this.config.limits.maxEventBytes, cancellation });
    }
    const text = await readCappedText(response.body, this.limit).catch((error: unknown) => {
      if (GatewayError.isInstance(error)) throw error;
      // The status alone still tells the client what happened.
      return '';
    });
    throw this.statusError(statusCode, (name) => firstValue(headers[name]), text);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private statusError(status: number, header: (name: string) => string | undefined, text: string): GatewayError {
    return this.errorFromStatus({
      status,
      body: parseLoosely(text),
      provider: this.provider,
      retryAfter: header('retry-after'),
      retryAfterMs: header('retry-after-ms'),
    });
  }
}
