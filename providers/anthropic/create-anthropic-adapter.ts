/**
 * The `anthropic` provider adapter: neutral requests to the Anthropic Messages API and back, streamed,
 * or as one whole `message` when the client reads the reply whole.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, ProviderAdapter, ProviderContext, StreamEvent } from '../../src/core/index.js';
import { modelsRemembered, refusalMemories, type RefusalMemories } from '../../src/core/refusal-memory.js';
import { UpstreamClient, type UpstreamClientOptions } from '../../src/http/upstream-client.js';
import { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { buildAnthropicHeaders } from './build-anthropic-headers.js';
import { buildAnthropicRequestBody } from './build-anthropic-request-body.js';
import { listAnthropicModels } from './list-anthropic-models.js';
import { readAnthropicMessage } from './read-anthropic-message.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { isStrictToolsRefusal } from './strict-tools-refused.js';

/** Anthropic has no embeddings endpoint, so the adapter has no `embed`. */
/**
 * A non-streaming client gets a non-streaming upstream request only up to this max_tokens: beyond it
 * Anthropic's own SDKs refuse non-streaming calls (60 × 60 × max_tokens / 128,000 s, their estimate of
 * the generation time, passes 10 minutes), since idle connections that long get dropped on the way.
 * Such requests stream from Anthropic and are folded for the client, as every request once was.
 * https://docs.anthropic.com/en/api/errors#long-requests
 */
const longestWholeReplyTokens = 21_333;

/** Where the Messages API lives and how calls authenticate, when not Anthropic's own (Vertex AI's rawPredict). */
export type AnthropicRoute = {
  path(model: string, stream: boolean): string;
  /** The Messages body as this host wants it (Vertex: no `model`, its `anthropic_version` in the body). */
  body(body: Record<string, unknown>): Record<string, unknown>;
  authorization(): Promise<Record<string, string>>;
  /** The host's own error bodies (Vertex AI answers auth, quota and routing failures in Google's envelope). */
  errorFromStatus: NonNullable<UpstreamClientOptions['errorFromStatus']>;
};

/**
 * `refusals`: the app's refusal memories (src/app.ts), where the models whose host refused strict tools are
 * remembered for `server.refusalMemoryMs`; a memory of its own, with the default lifetime, when absent.
 */
export function createAnthropicAdapter(
  config: ProviderConfig,
  route?: AnthropicRoute,
  refusals: RefusalMemories = refusalMemories(),
): ProviderAdapter {
  const client = new UpstreamClient(config, route ? { errorFromStatus: route.errorFromStatus } : {});
  const strictRefused = refusals(modelsRemembered);
  const strictRefusedReason = `Anthropic provider '${config.name}' refused strict tool use for this model`;

  /**
   * The request, with strict tools unless the host refused them for the model; a refusal now is remembered
   * and the request sent once more with the tools non-strict (nothing has reached the client yet).
   */
  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const model = request.model.model;
    if (strictRefused.has(model)) return send(request, context, strictRefusedReason);
    try {
      return await send(request, context, undefined);
    } catch (error) {
      if (!isStrictToolsRefusal(error) || !request.tools?.some((tool) => tool.strict === true)) throw error;
      if (strictRefused.remember(model))
        context.log.warn(
          { provider: config.name, model, reason: (error as Error).message },
          'the upstream refused strict tools for this model: its tools go without strict until the refusal is forgotten (server.refusalMemoryMs)',
        );
      return send(request, context, strictRefusedReason);
    }
  }

  async function send(
    request: ChatRequest,
    context: ProviderContext,
    refusedReason: string | undefined,
  ): Promise<AsyncIterable<StreamEvent>> {
    const { body, betas, warnings } = buildAnthropicRequestBody(request, config, { stream: true, strictRefused: refusedReason });
    const whole = context.wholeReply === true && body.max_tokens <= longestWholeReplyTokens;
    body.stream = !whole;
    if (warnings.length > 0) context.log.debug({ warnings, provider: config.name }, 'anthropic request warnings');
    const { cancellation } = context;
    const headers = buildAnthropicHeaders(config, { forwardHeaders: request.forwardHeaders, json: true, betas });
    const call = route
      ? {
          path: route.path(request.model.model, !whole),
          headers: { ...headers, ...(await route.authorization()) },
          json: route.body(body as unknown as Record<string, unknown>),
          cancellation,
        }
      : { path: '/v1/messages', headers, json: body, cancellation };
    const reader = new AnthropicStreamReader({ provider: config.name, model: request.model.model, warnings });
    // Read before resolving: a non-streaming client has seen nothing yet, so a failure here is still a real HTTP error.
    if (whole) return readAnthropicMessage(await client.readText(call), reader, config.name);
    return readAnthropicStream(await client.openStream(call), reader);
  }

  const adapter: ProviderAdapter = { stream, close: () => client.close() };
  if (!route) adapter.listModels = (context) => listAnthropicModels(client, config, context);
  return adapter;
}
