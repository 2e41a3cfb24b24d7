/**
 * POST /v1/responses and POST /{provider}/v1/responses (JSON and SSE) over any configured provider.
 * The WebSocket upgrade on GET is refused with 426, so Codex falls back to HTTP SSE.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { ChatPipeline, ChatRun } from '../../src/pipeline/chat-pipeline.js';
import { randomHex } from '../../src/core/random-id.js';
import type { LiveStreams } from '../../src/plugins/live-streams.js';
import { echoedModel, runGeneration } from '../shared/run-generation.js';
import { agentFormatFieldsOf } from '../shared/select-agent-format.js';
import { foldResponse } from './fold-response.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { ResponseAssembler } from './response-assembler.js';
import { ResponseStore } from './response-store.js';
import { registerStoredResponseRoutes } from './stored-response-routes.js';
import type { WireResponse } from './responses-wire.js';
import { streamResponse } from './stream-response.js';

export type ResponsesRouteOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreams;
  /** Where finished responses (unless `store: false`) are kept: previous_response_id, item_reference, GET/DELETE; built in app.ts. */
  store?: ResponseStore;
};

function responseId(): string {
  return `resp_${randomHex(32)}`;
}

/**
 * Codex tries `GET /v1/responses` with `Upgrade: websocket` when a provider says it supports
 * WebSockets; any HTTP status makes it fall back to POST + SSE (clients.md §1.9).
 */
function refuseWebSocket(request: FastifyRequest): never {
  const upgrade = request.headers.upgrade;
  if (typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket') {
    throw new GatewayError({
      status: 426,
      type: 'invalid_request_error',
      code: 'websocket_not_supported',
      message: 'WebSocket mode is not supported by this gateway; use POST /v1/responses (with stream: true for SSE).',
    });
  }
  throw new GatewayError({ status: 404, type: 'not_found_error', code: 'not_found', message: `Unknown route: GET ${request.url.split('?')[0]}` });
}

export function registerResponsesRoutes(app: FastifyInstance, options: ResponsesRouteOptions): void {
  const { pipeline, liveStreams } = options;
  const store = options.store ?? new ResponseStore();

  function handle(request: FastifyRequest, reply: FastifyReply, providerName?: string) {
    const parsed = parseResponsesRequest(request.body, store);
    if (providerName !== undefined) parsed.input.provider = providerName;
    // Route warnings travel through the pipeline into diagnostics; the assembler keeps them for failures.
    if (parsed.warnings.length) parsed.input.warnings = parsed.warnings;
    const assemblerFor = (run: ChatRun) =>
      new ResponseAssembler(
        { id: responseId(), createdAt: Math.floor(Date.now() / 1000), model: echoedModel(parsed.input, run), echo: parsed.echo },
        { toolKinds: parsed.toolKinds, warnings: parsed.warnings },
      );
    // `store: false` (what Codex sends, with its whole history every turn) is not kept, as at OpenAI.
    const remember = (response: WireResponse) => {
      if (parsed.echo.store) store.put({ response, input: parsed.conversation });
    };
    return runGeneration(request, reply, {
      pipeline,
      liveStreams,
      input: parsed.input,
      stream: parsed.stream,
      agentFormatFields: agentFormatFieldsOf(request.body),
      async renderBody(run) {
        const outcome = await foldResponse(run.events, assemblerFor(run));
        if (outcome.type === 'error') throw outcome.error;
        remember(outcome.response);
        return outcome.response;
      },
      async renderStream(run, writer) {
        const assembler = assemblerFor(run);
        const outcome = await streamResponse(run.events, writer, assembler);
        if (assembler.outcome?.type === 'response') remember(assembler.outcome.response);
        return outcome;
      },
    });
  }

  app.post('/v1/responses', (request, reply) => handle(request, reply));
  app.post<{ Params: { provider: string } }>('/:provider/v1/responses', (request, reply) => handle(request, reply, request.params.provider));
  app.get('/v1/responses', async (request) => refuseWebSocket(request));
  app.get('/:provider/v1/responses', async (request) => refuseWebSocket(request));
  registerStoredResponseRoutes(app, store);
}
