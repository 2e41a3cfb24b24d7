/**
 * The `anthropic` provider adapter: neutral requests to the Anthropic Messages API and back, streamed,
 * or as one whole `message` when the client reads the reply whole.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, ProviderAdapter, ProviderContext, StreamEvent } from '../../src/core/index.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { isGrammarTooComplex } from '../../src/core/grammar-too-complex.js';
import { modelsRemembered, refusalMemories, type RefusalMemories } from '../../src/core/refusal-memory.js';
import { UpstreamClient, type UpstreamClientOptions } from '../../src/http/upstream-client.js';
import { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { buildAnthropicHeaders } from './build-anthropic-headers.js';
import { buildAnthropicRequestBody } from './build-anthropic-request-body.js';
import { betaList, PlatformBetas, type ClaudeBetaPlatform } from './claude-platform-betas.js';
import { listAnthropicModels } from './list-anthropic-models.js';
import { readAnthropicMessage } from './read-anthropic-message.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { isStrictToolsRefusal } from './strict-tools-refused.js';
import { hasStrictTools, StrictToolsTooComplex } from './strict-tools-key.js';

/** What one attempt sent that a refusal may name: the betas, as the host got them. */
type Attempt = { betas: string[] };

/** The first attempt, one after a refusal of betas, one after a refusal of strict tools, and one for both. */
const maxAttempts = 4;

/** A 4xx from the host: only a refusal of the request as sent is learned from. */
function isRefusalOf400(error: unknown): error is GatewayError {
  return GatewayError.isInstance(error) && error.upstreamStatus !== undefined && error.upstreamStatus >= 400 && error.upstreamStatus < 500;
}

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
  /** The betas the host takes (claude-platform-betas.ts); Anthropic's own API takes every beta it knows. */
  betas: ClaudeBetaPlatform;
  /** False where the host refuses a file given by URL (Vertex AI); Anthropic's own API fetches it. */
  urlSources?: boolean;
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
  const platformBetas = route ? new PlatformBetas(route.betas, refusals) : undefined;
  const strictTooComplex = new StrictToolsTooComplex(refusals);

  /**
   * The request, with strict tools unless the host refused them for the model, and the betas the host takes;
   * a refusal of either now is remembered and the request sent once more without what was refused (nothing
   * has reached the client yet). Each refusal is learned once, so the attempts are bounded.
   */
  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const model = request.model.model;
    const grammarReason = `Anthropic provider '${config.name}' could not compile these strict tools for this model (too complex)`;
    let refusedReason = strictRefused.has(model) ? strictRefusedReason : strictTooComplex.has(request) ? grammarReason : undefined;
    for (let attempt = 1; ; attempt++) {
      const sent: Attempt = { betas: [] };
      try {
        return await send(request, context, refusedReason, sent);
      } catch (error) {
        if (attempt >= maxAttempts) throw error;
        if (platformBetas && isRefusalOf400(error) && platformBetas.learn(model, error.message, sent.betas)) {
          context.log.warn(
            { provider: config.name, model, reason: error.message },
            'the upstream refused betas for this model: they are left out until the refusal is forgotten (server.refusalMemoryMs)',
          );
          continue;
        }
        // A grammar the host gave up on, with no response format in it (the pipeline puts a refused format into
        // the prompt first): the strict tools are what made it, so they go without strict.
        if (
          refusedReason === undefined &&
          hasStrictTools(request) &&
          request.responseFormat?.type !== 'json_schema' &&
          isGrammarTooComplex(error)
        ) {
          if (strictTooComplex.remember(request))
            context.log.warn(
              { provider: config.name, model, reason: (error as Error).message },
              "the upstream's grammar compiler gave up on these strict tools: they go without strict for this model until the refusal is forgotten (server.refusalMemoryMs)",
            );
          refusedReason = `${grammarReason}: ${(error as Error).message}`;
          continue;
        }
        if (refusedReason !== undefined || !isStrictToolsRefusal(error) || !hasStrictTools(request)) throw error;
        if (strictRefused.remember(model))
          context.log.warn(
            { provider: config.name, model, reason: (error as Error).message },
            'the upstream refused strict tools for this model: its tools go without strict until the refusal is forgotten (server.refusalMemoryMs)',
          );
        refusedReason = strictRefusedReason;
      }
    }
  }

  async function send(
    request: ChatRequest,
    context: ProviderContext,
    refusedReason: string | undefined,
    sent: Attempt,
  ): Promise<AsyncIterable<StreamEvent>> {
    const { body, betas, warnings } = buildAnthropicRequestBody(request, config, {
      stream: true,
      strictRefused: refusedReason,
      urlSources: route?.urlSources ?? true,
    });
    const whole = context.wholeReply === true && body.max_tokens <= longestWholeReplyTokens;
    body.stream = !whole;
    if (warnings.length > 0) context.log.debug({ warnings, provider: config.name }, 'anthropic request warnings');
    const { cancellation } = context;
    const headers = buildAnthropicHeaders(config, { forwardHeaders: request.forwardHeaders, json: true, betas });
    if (platformBetas) {
      sent.betas = platformBetas.sendable(request.model.model, betaList(headers['anthropic-beta']), warnings);
      if (sent.betas.length > 0) headers['anthropic-beta'] = sent.betas.join(',');
      else delete headers['anthropic-beta'];
    }
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
