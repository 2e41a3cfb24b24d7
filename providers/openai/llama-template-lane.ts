/**
 * llama-server in the prompted lane: the conversation rendered by the model's own template
 * (`POST /apply-template`), then generated from with the family's special tokens preserved
 * (`POST /completion`), streamed or whole, read into the neutral events. Both endpoints live at the
 * server's root, beside the `/v1` base URL the chat endpoint uses.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { ProviderContext } from '../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { GatewayError, gatewayError } from '../../src/core/gateway-error.js';
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import type { RefusalMemory } from '../../src/core/refusal-memory.js';
import type { Warning } from '../../src/core/warning.js';
import { withForwardedHeaders } from '../../src/http/headers-for-non-anthropic.js';
import { UpstreamClient } from '../../src/http/upstream-client.js';
import { buildApplyTemplateBody, buildLlamaCompletionBody, llamaTopLogprobs } from './build-llama-completion-body.js';
import type { DecodeState } from './decode-chat-completion-chunks.js';
import { decodeLlamaCompletionChunks, parseLlamaCompletion } from './llama-completion-chunks.js';
import { readOpenAiStream } from './read-openai-stream.js';

type Headers = { stream: Record<string, string>; whole: Record<string, string> };

/** Whether a request takes this lane: llama-server, and the prompted lane with tools to parse. */
export function takesLlamaTemplateLane(request: ChatRequest): boolean {
  return request.model.server === 'llama.cpp' && request.keepSpecialTokens !== undefined;
}

/** The server's root: the base URL without its trailing `/v1`. */
function rootConfig(config: ProviderConfig): ProviderConfig {
  return { ...config, baseUrl: config.baseUrl.replace(/\/v1\/*$/, '') };
}

/** Sent as `n_probs` (build-llama-completion-body.ts). */
const logprobsFields: ReadonlySet<string> = new Set(['logprobs', 'top_logprobs']);

/** What this lane cannot send on, said rather than dropped. */
function unsentWarnings(request: ChatRequest): Warning[] {
  const unsent = Object.keys(request.openaiExtras ?? {}).filter(
    (name) => name !== 'chat_template_kwargs' && !isServerSamplingExtension(name) && !logprobsFields.has(name),
  );
  if (request.reasoningEffort != null) unsent.push('reasoning_effort');
  if (request.user != null) unsent.push('user');
  return unsent.map((name) => ({
    code: 'unsupported-parameter',
    message: `'${name}' has no llama-server /completion equivalent and was not sent.`,
  }));
}

function promptOf(reply: unknown, provider: string): string {
  const prompt = (reply as { prompt?: unknown } | null)?.prompt;
  if (typeof prompt !== 'string')
    throw gatewayError('upstream_bad_response', { message: `Upstream provider '${provider}' answered /apply-template without a prompt.` });
  return prompt;
}

/** The one key of the lane's refusal memory: the lane belongs to one provider, so to one server. */
const applyTemplateKey = '/apply-template';

/**
 * The server has no `/apply-template`: a llama-server build from before it (2025), or a proxy in front
 * that passes only `/v1`. Its 404 (or 405/501) says so; any other failure is the request's.
 */
function isMissingEndpoint(error: unknown): boolean {
  const status = GatewayError.isInstance(error) ? error.upstreamStatus : undefined;
  return status === 404 || status === 405 || status === 501;
}

/**
 * `templateMissing`: where the lane remembers that the server has no `/apply-template`, forgotten after
 * `server.refusalMemoryMs` like every refusal (src/core/refusal-memory.ts), so a server upgraded or
 * replaced behind the same URL gets the template lane back.
 */
export function createLlamaTemplateLane(config: ProviderConfig, headers: Headers, templateMissing: RefusalMemory) {
  // Made on first use: most openai-compatible providers never take this lane.
  let client: UpstreamClient | undefined;
  const root = () => (client ??= new UpstreamClient(rootConfig(config)));
  return {
    /** False while the server is remembered without `/apply-template`: the adapter uses the chat endpoint instead. */
    available: (): boolean => !templateMissing.has(applyTemplateKey),
    /** The reply, or undefined when the server has no `/apply-template` (then the chat endpoint serves the request). */
    async stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent> | undefined> {
      const whole = context.wholeReply === true;
      const { cancellation } = context;
      const forwarded = (shared: Record<string, string>) => withForwardedHeaders(shared, request.forwardHeaders);
      let rendered: unknown;
      try {
        rendered = await root().readJson({
          path: '/apply-template',
          headers: forwarded(headers.whole),
          json: buildApplyTemplateBody(request),
          cancellation,
        });
      } catch (error) {
        if (!isMissingEndpoint(error)) throw error;
        if (!templateMissing.remember(applyTemplateKey)) return undefined;
        context.log.warn(
          { provider: config.name },
          "llama-server has no /apply-template (an older build, or a proxy that passes /v1 only): the prompted lane uses its chat endpoint, with the gateway's own prompt",
        );
        return undefined;
      }
      const call = {
        path: '/completion',
        headers: forwarded(whole ? headers.whole : headers.stream),
        json: buildLlamaCompletionBody(request, promptOf(rendered, config.name), !whole),
        cancellation,
      };
      const readOptions = {
        provider: config.name,
        model: request.model.model,
        warnings: unsentWarnings(request),
        cancellation,
        stop: request.stop,
      };
      const topLogprobs = llamaTopLogprobs(request);
      if (whole) return readOpenAiStream([parseLlamaCompletion(await root().readText(call), config.name, topLogprobs)], readOptions);
      const upstream = await root().openStream(call);
      const state: DecodeState = { sawDone: false };
      return readOpenAiStream(decodeLlamaCompletionChunks(upstream, config.name, state, topLogprobs), { ...readOptions, state });
    },
    close: (): Promise<void> => client?.close() ?? Promise.resolve(),
  };
}
