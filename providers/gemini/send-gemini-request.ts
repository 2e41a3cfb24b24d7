/**
 * The Gemini adapter's calls over the provider's one UpstreamClient: `generateContent` read whole,
 * `streamGenerateContent` as SSE, and GETs (the model list), with the key in `x-goog-api-key` and
 * Google's error bodies mapped by their own `status`. https://ai.google.dev/api/generate-content
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { Cancellation } from '../../src/core/cancellation.js';
import { withForwardedHeaders } from '../../src/http/headers-for-non-anthropic.js';
import { UpstreamClient } from '../../src/http/upstream-client.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import { version } from '../../src/version.js';
import { mapGeminiStatusError } from './map-gemini-error.js';

export type GeminiCall = {
  /** Under the base URL, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  path: string;
  /** POSTed as JSON when present; a GET otherwise. */
  body?: unknown;
  forwardHeaders?: Record<string, string>;
  cancellation: Cancellation | undefined;
};

export class GeminiUpstream {
  private readonly client: UpstreamClient;
  /** Built once per upstream: the shared headers for replies read whole, and for SSE streams. */
  private readonly wholeHeaders: Record<string, string>;
  private readonly streamHeaders: Record<string, string>;

  /** `authorization`: headers that authenticate each call when not a key (Vertex AI's bearer tokens). */
  constructor(
    config: ProviderConfig,
    private readonly authorization?: () => Promise<Record<string, string>>,
  ) {
    this.client = new UpstreamClient(config, { errorFromStatus: mapGeminiStatusError });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': `interlingua/${version}` };
    if (config.apiKey) headers['x-goog-api-key'] = config.apiKey;
    for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
    this.wholeHeaders = headers;
    this.streamHeaders = { ...headers, accept: 'text/event-stream' };
  }

  private async headers(shared: Record<string, string>, call: GeminiCall): Promise<Record<string, string>> {
    const headers = withForwardedHeaders(shared, call.forwardHeaders);
    return this.authorization ? { ...headers, ...(await this.authorization()) } : headers;
  }

  /** The 2xx body's text; otherwise a GatewayError. */
  async readText(call: GeminiCall): Promise<string> {
    return this.client.readText({
      path: call.path,
      headers: this.authorization
        ? await this.headers(this.wholeHeaders, call)
        : withForwardedHeaders(this.wholeHeaders, call.forwardHeaders),
      json: call.body,
      cancellation: call.cancellation,
    });
  }

  /** A streamed POST: resolves once 2xx headers arrived; otherwise a GatewayError. */
  async openStream(call: GeminiCall): Promise<UpstreamStream> {
    return this.client.openStream({
      path: call.path,
      headers: this.authorization
        ? await this.headers(this.streamHeaders, call)
        : withForwardedHeaders(this.streamHeaders, call.forwardHeaders),
      json: call.body,
      cancellation: call.cancellation,
    });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
