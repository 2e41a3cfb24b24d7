/**
 * POST /v1/messages (Anthropic Messages API, JSON and SSE) and /v1/messages/count_tokens, also under
 * /{provider}/v1/…, so that Claude Code and Anthropic SDK clients can reach any configured provider.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomHex } from '../../src/core/random-id.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { Warning } from '../../src/core/warning.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { runGeneration, agentFormatFieldsOf } from '../shared/run-generation.js';
import { toAnthropicErrorBody } from './anthropic-wire.js';
import type { BodyValidators } from '../shared/body-validator.js';
import { estimateInputTokens } from '../../src/pipeline/estimate-tokens.js';
import { foldMessage } from './fold-message.js';
import { parseConversation, parseMessagesRequest, validateCountTokensBody } from './parse-messages-request.js';
import { streamMessage } from './stream-message.js';

/** `caches`: the app's (src/core/request-caches.ts): a resent tool list is validated and translated once. */
export type MessagesRouteOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreamRegistry;
  caches: RouteToolCaches;
  validators: BodyValidators;
};

type ProviderParams = { Params: { provider: string } };

/** Errors on these routes use Anthropic's envelope (see src/plugins/error-envelope.ts). */
const routeConfig = { config: { renderError: toAnthropicErrorBody } };

/** `/v1/messages…` and `/{provider}/v1/messages…`: requests there that no route matched get Anthropic's envelope too. */
const messagesPath = /^(?:\/[^/?#]+)?\/v1\/messages(?:[/?#]|$)/;

/** Anthropic's own keep-alive event, which its SDKs skip (https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types). */
const anthropicPingFrame = 'event: ping\ndata: {"type": "ping"}\n\n';

function messageId(): string {
  return `msg_${randomHex(24)}`;
}

export function registerMessagesRoutes(app: FastifyInstance, options: MessagesRouteOptions): void {
  const { pipeline, liveStreams, caches, validators } = options;
  app.errorEnvelopes.claim(messagesPath, toAnthropicErrorBody);

  function createMessage(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const parsed = parseMessagesRequest(request.body, request.headers, validators, caches);
    if (providerName !== undefined) parsed.input.provider = providerName;
    if (parsed.warnings.length) parsed.input.warnings = parsed.warnings;
    // The client sees these in `diagnostics`; the log keeps them for operators at debug level.
    for (const warning of parsed.warnings) request.log.debug({ code: warning.code }, warning.message);
    // The model is echoed as the client wrote it, so Claude Code's per-model bookkeeping matches.
    const meta = { id: messageId(), model: parsed.input.model };
    return runGeneration(request, reply, {
      pipeline,
      liveStreams,
      input: parsed.input,
      stream: parsed.stream,
      agentFormatFields: agentFormatFieldsOf(request.body),
      async renderBody(run) {
        const result = await foldMessage(run.events, meta);
        if ('error' in result) throw result.error;
        return result.body;
      },
      renderStream: (run, writer) => streamMessage(run.events, writer, meta),
      keepAliveFrame: anthropicPingFrame,
    });
  }

  /**
   * Resolving the model first, as a real call does, gives count_tokens the same answers: 404 for an unknown
   * model, 403 for one the key may not use, and a count for a deployment name.
   */
  function countTokens(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const body = validateCountTokensBody(request.body, validators, caches);
    pipeline.singleTarget(body.model, request.gatewayContext?.access, providerName);
    const warnings: Warning[] = [];
    const input = parseConversation(body, warnings, caches);
    return reply.header('x-token-count', 'estimate').send({ input_tokens: estimateInputTokens(input) });
  }

  app.post('/v1/messages', routeConfig, (request, reply) => createMessage(request, reply));
  app.post<ProviderParams>('/:provider/v1/messages', routeConfig, (request, reply) =>
    createMessage(request, reply, request.params.provider),
  );
  app.post('/v1/messages/count_tokens', routeConfig, (request, reply) => countTokens(request, reply));
  app.post<ProviderParams>('/:provider/v1/messages/count_tokens', routeConfig, (request, reply) =>
    countTokens(request, reply, request.params.provider),
  );
}
