/**
 * POST /v1/responses and POST /{provider}/v1/responses (JSON and SSE) over any configured provider,
 * the WebSocket mode on GET of the same paths, and the stored responses' GET/DELETE routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { runGeneration, agentFormatFieldsOf } from '../shared/run-generation.js';
import { foldResponse } from './fold-response.js';
import { prepareResponseTurn } from './response-turn.js';
import type { StoredResponses } from './stored-responses.js';
import { handleResponsesSocket } from './responses-socket.js';
import { registerStoredResponseRoutes } from './stored-response-routes.js';
import { streamResponse } from './stream-response.js';

export type ResponsesRouteOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreamRegistry;
  /** Where finished responses (unless `store: false`) are kept: previous_response_id, item_reference, GET/DELETE; built in app.ts. */
  store: StoredResponses;
  /** The app's caches (src/core/request-caches.ts): a resent tool list is validated and translated once. */
  caches: RouteToolCaches;
  /** `server.maxJsonDepth`, for WebSocket frames (HTTP bodies are checked by the body parser). */
  maxJsonDepth: number;
  /** `server.bodyLimitBytes`: what one WebSocket connection keeps for chaining. */
  bodyLimitBytes: number;
  /** The app's request-body validators (routes/shared/body-validator.ts). */
  validators: BodyValidators;
  /** `server.webSocketMaxConnectionMs`: how long one WebSocket connection may stay open. */
  maxConnectionMs: number;
};

/**
 * GET without an upgrade: the WebSocket route serves only upgrades. A 426 naming the upgrade, not the 404 of
 * an unknown route: a client that reached the WebSocket path over plain HTTP learns what to do, not that the
 * path does not exist.
 */
function plainGet(request: FastifyRequest): never {
  throw gatewayError('websocket_only_route', {
    message: `GET ${request.url.split('?')[0]} serves only the Responses WebSocket mode: connect with Upgrade: websocket (create a response with POST).`,
    headers: { upgrade: 'websocket' },
  });
}

/** Needs `@fastify/websocket` registered on `app` first (app.ts does). */
export function registerResponsesRoutes(app: FastifyInstance, options: ResponsesRouteOptions): void {
  const { pipeline, liveStreams, store, caches, validators, maxJsonDepth, bodyLimitBytes, maxConnectionMs } = options;

  async function handle(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const turn = await prepareResponseTurn(request.body, store, providerName, validators, caches);
    const { parsed } = turn;
    // Refused before generating: an answer that was to be kept but cannot be is tokens spent for nothing.
    if (parsed.echo.store) store.assertWritable();
    // `store: false` (what Codex sends, with its whole history every turn) is not kept, as at OpenAI.
    // A store failing after the answer was generated only costs a later previous_response_id: the answer still goes out.
    const remember = async (response: Parameters<typeof turn.stored>[0]) => {
      if (!parsed.echo.store) return;
      await store
        .put(turn.stored(response))
        .catch((error: unknown) => request.log.warn({ err: error, responseId: response.id }, 'response not stored'));
    };
    return runGeneration(request, reply, {
      pipeline,
      liveStreams,
      input: parsed.input,
      stream: parsed.stream,
      agentFormatFields: agentFormatFieldsOf(request.body),
      async renderBody(run) {
        const outcome = await foldResponse(run.events, turn.assemblerFor(run));
        if (outcome.type === 'error') throw outcome.error;
        await remember(outcome.response);
        return outcome.response;
      },
      async renderStream(run, writer) {
        const assembler = turn.assemblerFor(run);
        const outcome = await streamResponse(run.events, writer, assembler);
        if (assembler.outcome?.type === 'response') await remember(assembler.outcome.response);
        return outcome;
      },
    });
  }

  app.post('/v1/responses', (request, reply) => handle(request, reply));
  app.post<{ Params: { provider: string } }>('/:provider/v1/responses', (request, reply) =>
    handle(request, reply, request.params.provider),
  );
  const socketOptions = { pipeline, liveStreams, store, caches, validators, maxJsonDepth, bodyLimitBytes, maxConnectionMs };
  app.route({
    method: 'GET',
    url: '/v1/responses',
    handler: async (request) => plainGet(request),
    wsHandler: (socket, request) => handleResponsesSocket(socket, request, socketOptions),
  });
  app.route<{ Params: { provider: string } }>({
    method: 'GET',
    url: '/:provider/v1/responses',
    handler: async (request) => plainGet(request),
    wsHandler: (socket, request) => handleResponsesSocket(socket, request, { ...socketOptions, providerName: request.params.provider }),
  });
  registerStoredResponseRoutes(app, store);
}
