/**
 * The Responses WebSocket mode (GET /v1/responses with `Upgrade: websocket`), as Codex uses it with
 * `supports_websockets = true`: each `response.create` text frame is a Responses body; the server
 * answers with the same `response.*` events as the SSE stream, one JSON text frame each. One response
 * at a time per connection; `previous_response_id` chains on the connection even with `store: false`
 * (Codex sends only the new items each turn); `generate: false` is a warm-up that returns a response
 * id and generates nothing. https://developers.openai.com/api/docs/guides/websocket-mode
 */
import type { SpendReservation } from '../../src/core/spend-reservation.js';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { gatewayError, invalidRequest, toGatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import { findTooDeepValue, tooDeepError } from '../../src/core/find-too-deep-value.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { toOpenAiErrorBody } from '../shared/openai-wire.js';
import { generationRunOptions, providerContext, agentFormatFieldsOf, selectAgentFormat } from '../shared/run-generation.js';
import type { StoredResponseLookup } from './parse-responses-request.js';
import { prepareResponseTurn, type ResponseTurn } from './response-turn.js';
import { ResponseStore, type StoredResponse } from './response-store.js';
import type { StoredResponses } from './stored-responses.js';
import { SocketEventWriter } from './socket-event-writer.js';
import { SocketTurnObserver } from './socket-turn-observer.js';
import { sendAll, streamResponse } from './stream-response.js';

export type ResponsesSocketOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreamRegistry;
  /** The shared store: responses with `store` on go there too, and are found from any connection. */
  store: StoredResponses;
  /** Set on /{provider}/v1/responses. */
  providerName?: string;
  caches: RouteToolCaches;
  /** `server.maxJsonDepth`: a frame is a body, refused past the same depth as one over HTTP. */
  maxJsonDepth: number;
  /** `server.bodyLimitBytes`: frames are as large as bodies, and a connection keeps this much for chaining. */
  bodyLimitBytes: number;
  validators: BodyValidators;
  /** `server.webSocketMaxConnectionMs`: how long a connection may stay open; 0: no limit. */
  maxConnectionMs: number;
};

type CreateFrame = { body: Record<string, unknown>; generate: boolean; streamId: string | undefined };

const streamIdPattern = /^[A-Za-z0-9_.-]{1,256}$/;

function parseFrame(data: string, maxJsonDepth: number): CreateFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    throw gatewayError('invalid_json', { message: 'A WebSocket frame must be one JSON object; this one is not valid JSON.', param: null });
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame))
    throw gatewayError('invalid_json', { message: 'A WebSocket frame must be one JSON object.', param: null });
  // Frames skip the HTTP body parser, so its depth check is made here: deeper values overflow the stack further in.
  const tooDeep = findTooDeepValue(frame, maxJsonDepth);
  if (tooDeep !== undefined) throw tooDeepError(tooDeep, maxJsonDepth);
  const { type, generate, stream_id: streamId, ...body } = frame as Record<string, unknown>;
  if (type !== 'response.create') {
    throw gatewayError('unsupported_event_type', {
      message: `Invalid value for 'type': ${JSON.stringify(type)}; this gateway accepts only 'response.create' frames.`,
      param: 'type',
    });
  }
  if (streamId !== undefined && (typeof streamId !== 'string' || !streamIdPattern.test(streamId))) {
    throw invalidRequest("Invalid value for 'stream_id': 1 to 256 characters of A-Z, a-z, 0-9, '_', '.' and '-'.", 'stream_id');
  }
  if (generate !== undefined && typeof generate !== 'boolean')
    throw invalidRequest("Invalid type for 'generate': expected a boolean.", 'generate');
  // The transport streams by nature: `stream` is implied, whatever the frame says.
  body.stream = true;
  return { body, generate: generate !== false, streamId };
}

/** OpenAI's WebSocket error event: the HTTP status it would have had, and the usual error object. */
function errorFrame(error: GatewayError, streamId: string | undefined): string {
  const frame: Record<string, unknown> = { type: 'error', status: error.status, ...toOpenAiErrorBody(error) };
  if (streamId !== undefined) frame.stream_id = streamId;
  return JSON.stringify(frame);
}

export function handleResponsesSocket(socket: WebSocket, request: FastifyRequest, options: ResponsesSocketOptions): void {
  // This connection's own responses, `store: false` ones included, for chaining; a few suffice
  // (Codex continues from the latest one).
  // Bounded in bytes too (there is one per open connection): as much as one request body may hold, what
  // a client that chains nothing would resend each turn.
  const connectionStore = new ResponseStore({ maxEntries: 8, maxBytes: options.bodyLimitBytes });
  const lookup: StoredResponseLookup = {
    get: async (id) => connectionStore.get(id) ?? options.store.get(id),
    getItem: async (id) => connectionStore.getItem(id) ?? options.store.getItem(id),
  };
  let current: RequestCancellation | undefined;
  // Connections end after a while, as at OpenAI, so an idle upgraded socket is not held forever; the
  // limit falls between turns, never inside one, and says so in OpenAI's own error event first.
  let expired = false;
  const closeExpired = () => {
    if (socket.readyState !== socket.OPEN) return;
    const limit = gatewayError('websocket_connection_limit_reached', {
      message: `This connection reached its limit of ${options.maxConnectionMs / 1000} s; open a new connection to continue.`,
    });
    socket.send(errorFrame(limit, undefined));
    socket.close(1000, 'connection limit reached');
  };
  // A config reload retired this connection's app: a new turn would run on the old config (a removed key,
  // an old limit) and keep the old app alive. OpenAI's limit event is the one clients already answer by
  // connecting again, where the new config serves them.
  const closeRetired = () => {
    const reloaded = gatewayError('websocket_connection_limit_reached', {
      message: 'The gateway reloaded its config; open a new connection to continue.',
    });
    socket.send(errorFrame(reloaded, undefined));
    socket.close(1012, 'the gateway reloaded its config; connect again');
  };
  const expiry =
    options.maxConnectionMs > 0
      ? setTimeout(() => {
          expired = true;
          if (!current) closeExpired();
        }, options.maxConnectionMs)
      : undefined;
  expiry?.unref();
  socket.on('close', () => {
    clearTimeout(expiry);
    current?.abort(new Error('client closed the connection'));
  });

  const keep = async (turn: ResponseTurn, stored: StoredResponse) => {
    connectionStore.put(stored);
    if (!turn.parsed.echo.store) return;
    // The connection still chains on it; only other connections and replicas miss it.
    await options.store
      .put(stored)
      .catch((error: unknown) => request.log.warn({ err: error, responseId: stored.response.id }, 'response not stored'));
  };

  async function run(frame: CreateFrame, cancellation: RequestCancellation): Promise<void> {
    const turn = await prepareResponseTurn(frame.body, lookup, options.providerName, options.validators, options.caches);
    if (turn.parsed.echo.store) options.store.assertWritable();
    const writer = new SocketEventWriter(socket, frame.streamId);
    if (!frame.generate) {
      // Warm-up: a completed response with no output, whose id the next frame continues from.
      const assembler = turn.assemblerFor(undefined);
      await sendAll(writer, assembler.start());
      await sendAll(writer, assembler.push({ type: 'finish', reason: { unified: 'stop' }, usage: {} }));
      if (assembler.outcome?.type === 'response') await keep(turn, turn.stored(assembler.outcome.response));
      return;
    }
    const agentFormat = selectAgentFormat(options.pipeline, request.headers, agentFormatFieldsOf(frame.body));
    // Each turn is limited, traced and counted like an HTTP request, under the key's policy.
    const observer = new SocketTurnObserver(request, turn.parsed.input);
    // Connections of one key run turns side by side: each reserves its cost, as an HTTP chat does (src/plugins/budgets.ts).
    let reservation: SpendReservation | undefined;
    try {
      await observer.admit();
      if (request.gatewayContext?.budget && request.server.reserveBudget)
        reservation = await request.server.reserveBudget(request, undefined, turn.parsed.input);
      const context = providerContext(request, cancellation, false);
      observer.trace?.bind(context);
      const run = await options.pipeline.run(
        turn.parsed.input,
        context,
        generationRunOptions(request, options.pipeline, agentFormat.selection.format, observer),
      );
      observer.started(run);
      const assembler = turn.assemblerFor(run);
      const unwatch = options.liveStreams.keepAlive.watch(writer);
      const outcome = await streamResponse(run.events, writer, assembler).finally(unwatch);
      if (assembler.outcome?.type === 'response') await keep(turn, turn.stored(assembler.outcome.response));
      observer.ended(outcome);
      request.log.info(
        {
          responseId: assembler.outcome?.type === 'response' ? assembler.outcome.response.id : undefined,
          provider: run.model.provider,
          outcome,
        },
        'websocket response',
      );
    } catch (error) {
      observer.ended('failed', error);
      throw error;
    } finally {
      if (reservation) void reservation.release();
    }
  }

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    // Closing already: a frame sent after the limit's error event is not started.
    if (expired) return;
    if (request.server.isRetired?.()) {
      expired = true;
      closeRetired();
      return;
    }
    if (current) {
      const busy = gatewayError('response_in_progress', {
        message:
          'A response is already being generated on this connection; send the next response.create after its response.completed (one response at a time per connection).',
      });
      socket.send(errorFrame(busy, undefined));
      return;
    }
    const cancellation = new RequestCancellation();
    current = cancellation;
    const release = options.liveStreams.add(cancellation);
    let streamId: string | undefined;
    void (async () => {
      try {
        if (isBinary) throw gatewayError('invalid_frame', { message: 'Frames must be text frames holding JSON, not binary.', param: null });
        const frame = parseFrame(data.toString('utf8'), options.maxJsonDepth);
        streamId = frame.streamId;
        await run(frame, cancellation);
      } catch (error) {
        // Failures before the first event (bad frame, unknown model, upstream refused): an error frame, and the connection stays usable.
        if (socket.readyState === socket.OPEN) socket.send(errorFrame(toGatewayError(error), streamId));
      } finally {
        release();
        current = undefined;
        if (expired) closeExpired();
      }
    })();
  });
}
