/**
 * The adapter for OpenAI and OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, OpenRouter, …):
 * chat completions streamed, or whole when the client reads the reply whole, model lists and
 * embeddings, all through the provider's UpstreamClient.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { EmbeddingRequest, EmbeddingResult, ModelInfo, ProviderAdapter, ProviderContext } from '../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { withForwardedHeaders } from '../../src/http/headers-for-non-anthropic.js';
import { UpstreamClient } from '../../src/http/upstream-client.js';
import { refusalMemories, type RefusalMemories } from '../../src/core/refusal-memory.js';
import { version } from '../../src/version.js';
import { toolChoiceWarnings } from './server-tool-choice.js';
import { serializeOpenAiRequestBody, type OpenAiBodyCaches, type OpenAiFlavour, serverFieldWarnings } from './build-openai-request-body.js';
import { decodeChatCompletionChunks, type DecodeState } from './decode-chat-completion-chunks.js';
import { readOpenAiEmbeddings, readOpenAiModels } from './read-openai-listings.js';
import { parseChatCompletion } from './read-chat-completion.js';
import { createLlamaTemplateLane, takesLlamaTemplateLane } from './llama-template-lane.js';
import { readOpenAiStream } from './read-openai-stream.js';
import { warnWhenNoLogprobs } from '../logprobs-not-returned.js';

/** The headers every request of one upstream shares, built once; `accept` differs between streams and whole bodies. */
function sharedHeaders(config: ProviderConfig, accept: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept, 'user-agent': `interlingua/${version}` };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * Where a deployment of OpenAI's API puts its routes and how it authenticates, when that is not OpenAI's
 * own (`/chat/completions` under the base URL, `Authorization: Bearer apiKey`): Azure OpenAI's.
 */
export type OpenAiEndpoint = {
  chatPath(model: string): string;
  embeddingsPath(model: string): string;
  /** Absent: the upstream has no list of the names requests use (Azure lists base models, not deployments). */
  modelsPath?: string;
  /** Headers that authenticate each request (a token that expires is fetched again); none when absent. */
  authorization?(): Promise<Record<string, string>>;
  /** The API predates `max_completion_tokens`, `parallel_tool_calls` and `stream_options` (OpenAiBodyOptions.olderApi). */
  olderApi?: boolean;
};

const openAiEndpoint: OpenAiEndpoint = {
  chatPath: () => '/chat/completions',
  embeddingsPath: () => '/embeddings',
  modelsPath: '/models',
};

/** `refusals`: the app's refusal memories (src/app.ts); a memory of its own, with the default lifetime, when absent. */
export function createOpenAiAdapter(
  config: ProviderConfig,
  flavour: OpenAiFlavour,
  caches?: OpenAiBodyCaches,
  endpoint: OpenAiEndpoint = openAiEndpoint,
  refusals: RefusalMemories = refusalMemories(),
): ProviderAdapter {
  const client = new UpstreamClient(config);
  const streamHeaders = sharedHeaders(config, 'text/event-stream');
  const wholeHeaders = sharedHeaders(config, 'application/json');
  /** The shared headers, with the endpoint's authentication when it has its own. */
  const authenticated = async (headers: Record<string, string>): Promise<Record<string, string>> =>
    endpoint.authorization ? { ...headers, ...(await endpoint.authorization()) } : headers;
  const llamaTemplateLane = createLlamaTemplateLane(config, { stream: streamHeaders, whole: wholeHeaders }, refusals(1));

  async function streamChat(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    if (flavour === 'openai-compatible' && takesLlamaTemplateLane(request) && llamaTemplateLane.available()) {
      const rendered = await llamaTemplateLane.stream(request, context);
      if (rendered) return rendered;
    }
    const whole = context.wholeReply === true;
    const { cancellation } = context;
    const body = serializeOpenAiRequestBody(request, flavour, { stream: !whole, olderApi: endpoint.olderApi === true }, caches);
    const warnings = flavour === 'openai' && request.openaiExtras ? serverFieldWarnings(request.openaiExtras) : toolChoiceWarnings(request);
    if (endpoint.olderApi && request.tools?.length && typeof request.parallelToolCalls === 'boolean')
      warnings.push({
        code: 'unsupported-parameter',
        message: `Provider '${config.name}': this API version has no parallel_tool_calls; it was not sent.`,
      });
    const readOptions = { provider: config.name, model: request.model.model, warnings, cancellation, stop: request.stop };
    const headers = withForwardedHeaders(whole ? wholeHeaders : streamHeaders, request.forwardHeaders);
    const call = {
      path: endpoint.chatPath(request.model.model),
      headers: endpoint.authorization ? await authenticated(headers) : headers,
      body,
      cancellation,
    };
    if (whole) {
      // Read before resolving: a non-streaming client has seen nothing yet, so a failure here is still a real HTTP error.
      const text = await client.readText(call);
      return readOpenAiStream([parseChatCompletion(text, config.name)], readOptions);
    }
    const upstream = await client.openStream(call);
    const state: DecodeState = { sawDone: false };
    return readOpenAiStream(decodeChatCompletionChunks(upstream, config.name, state), { ...readOptions, state });
  }

  /** A server that ignores `logprobs` (logprobs-not-returned.ts) is said to, in a warning. */
  function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    return warnWhenNoLogprobs(streamChat(request, context), request, config.name);
  }

  const adapter: ProviderAdapter = {
    stream,

    async embed(request: EmbeddingRequest, context: ProviderContext): Promise<EmbeddingResult> {
      const body: Record<string, unknown> = { model: request.model, input: request.input };
      if (request.dimensions !== undefined) body.dimensions = request.dimensions;
      if (request.encodingFormat !== undefined) body.encoding_format = request.encodingFormat;
      if (request.user !== undefined) body.user = request.user;
      return readOpenAiEmbeddings(
        await client.readJson({
          path: endpoint.embeddingsPath(request.model),
          headers: await authenticated(wholeHeaders),
          json: body,
          cancellation: context.cancellation,
        }),
        config.name,
      );
    },

    close: async () => {
      await Promise.all([client.close(), llamaTemplateLane.close()]);
    },
  };
  const { modelsPath } = endpoint;
  if (modelsPath !== undefined)
    adapter.listModels = async (context: ProviderContext): Promise<ModelInfo[]> =>
      readOpenAiModels(
        await client.readJson({ path: modelsPath, headers: await authenticated(wholeHeaders), cancellation: context.cancellation }),
        config.name,
      );
  return adapter;
}
