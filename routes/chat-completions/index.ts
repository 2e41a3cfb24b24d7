/** POST /v1/chat/completions and POST /{provider}/v1/chat/completions (JSON and SSE). */
import { randomHex } from '../../src/pipeline/random-hex.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { LiveStreams } from '../../src/plugins/live-streams.js';
import { annotateRequest, logRequest } from '../../src/plugins/request-log.js';
import { watchClientAbort } from '../shared/client-abort.js';
import { selectAgentFormat } from '../shared/select-agent-format.js';
import { SseWriter } from '../shared/sse-writer.js';
import { foldChatCompletion } from './fold-chat-completion.js';
import { parseChatCompletionRequest } from './parse-chat-completion-request.js';
import { streamChatCompletion } from './stream-chat-completion.js';

export type ChatCompletionsRouteOptions = { pipeline: ChatPipeline; liveStreams: LiveStreams };

function completionId(): string {
  return `chatcmpl-${randomHex(24)}`;
}

export function registerChatCompletionsRoutes(app: FastifyInstance, options: ChatCompletionsRouteOptions): void {
  const { pipeline, liveStreams } = options;

  async function handle(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const parsed = parseChatCompletionRequest(request.body);
    if (providerName !== undefined) parsed.input.provider = providerName;
    const agentFormat = selectAgentFormat(pipeline, request.headers, { field: parsed.agentFormat, toolCallTags: parsed.toolCallTags });
    // The client's disconnect aborts the upstream request (one signal down to undici).
    const abort = watchClientAbort(reply);
    const release = liveStreams.add(abort.controller);
    try {
      const run = await pipeline.run(parsed.input, { signal: abort.signal, requestId: request.id, log: request.log }, { agentFormat: agentFormat.selection.format });
      annotateRequest(request, { provider: run.model.provider, model: run.model.model, toolCalling: run.toolCalling, toolFormat: run.toolFormat, stream: parsed.stream });
      const headers: Record<string, string> = { 'x-request-id': request.id, 'x-tool-calling': run.toolCalling, 'x-agent-format': agentFormat.header };
      if (run.toolFormat) headers['x-tool-format'] = run.toolFormat;
      const meta = { id: completionId(), created: Math.floor(Date.now() / 1000), model: parsed.input.provider ? parsed.input.model : run.model.id };

      if (!parsed.stream) {
        const result = await foldChatCompletion(run.events, meta);
        if ('error' in result) throw result.error;
        return reply.headers(headers).send(result.body);
      }

      reply.hijack();
      const writer = new SseWriter(reply.raw);
      writer.start(headers);
      const outcome = await streamChatCompletion(run.events, writer, { ...meta, includeUsage: parsed.includeUsage });
      writer.end();
      logRequest(request, 200, outcome);
      return reply;
    } finally {
      release();
      abort.dispose();
    }
  }

  app.post('/v1/chat/completions', (request, reply) => handle(request, reply));
  app.post<{ Params: { provider: string } }>('/:provider/v1/chat/completions', (request, reply) => handle(request, reply, request.params.provider));
}
