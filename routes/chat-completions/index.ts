/** POST /v1/chat/completions and POST /{provider}/v1/chat/completions (JSON and SSE). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RandomHexPool } from '../../src/core/random-hex-pool.js';
import type { ChatInput } from '../../src/core/chat-request.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { ChatRun } from '../../src/pipeline/chat-run.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { echoedModel, runGeneration } from '../shared/run-generation.js';
import { foldChatCompletion } from './fold-chat-completion.js';
import { parseChatCompletionRequest } from './parse-chat-completion-request.js';
import { streamChatCompletion } from './stream-chat-completion.js';

/** `caches`: the app's (src/core/request-caches.ts): a resent tool list is validated and translated once. */
export type ChatCompletionsRouteOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreamRegistry;
  caches: RouteToolCaches;
  validators: BodyValidators;
  /** Where completion ids come from (the app's pool; src/app.ts). */
  ids: RandomHexPool;
};

export function registerChatCompletionsRoutes(app: FastifyInstance, options: ChatCompletionsRouteOptions): void {
  const { pipeline, liveStreams, caches, validators, ids } = options;
  const completionMeta = (input: ChatInput, run: ChatRun) => ({
    id: `chatcmpl-${ids.hex(24)}`,
    created: Math.floor(Date.now() / 1000),
    model: echoedModel(input, run),
  });

  function handle(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const parsed = parseChatCompletionRequest(request.body, validators, caches);
    if (providerName !== undefined) parsed.input.provider = providerName;
    return runGeneration(request, reply, {
      pipeline,
      liveStreams,
      input: parsed.input,
      stream: parsed.stream,
      agentFormatFields: { field: parsed.agentFormat, toolCallTags: parsed.toolCallTags },
      async renderBody(run) {
        const result = await foldChatCompletion(run.events, completionMeta(parsed.input, run));
        if ('error' in result) throw result.error;
        return result.body;
      },
      renderStream(run, writer) {
        return streamChatCompletion(run.events, writer, { ...completionMeta(parsed.input, run), includeUsage: parsed.includeUsage });
      },
    });
  }

  app.post('/v1/chat/completions', (request, reply) => handle(request, reply));
  app.post<{ Params: { provider: string } }>('/:provider/v1/chat/completions', (request, reply) =>
    handle(request, reply, request.params.provider),
  );
}
