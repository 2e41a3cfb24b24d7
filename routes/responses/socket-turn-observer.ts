/**
 * What makes one WebSocket turn count like an HTTP request: the key's rate limits (a request and a
 * stream slot per turn), its own span, and its line in the metrics and the log when it ends. The
 * upgrade request only opened the connection; each `response.create` is a generation of its own.
 */
import type { FastifyRequest } from 'fastify';
import { toGatewayError } from '../../src/core/gateway-error.js';
import type { ChatRun, RunProgress } from '../../src/pipeline/chat-run.js';
import { isPromise } from '../../src/core/maybe-promise.js';
import type { Admission } from '../../src/core/admission.js';
import type { RequestTrace } from '../../src/core/request-trace.js';
import type { ChatInput } from '../../src/core/chat-request.js';
import { startGenerationTrace, type GenerationObservers } from '../shared/run-generation.js';

/** The metrics' route label of a turn: the upgrade's route, marked apart from its HTTP requests. */
const socketRoute = (request: FastifyRequest) => `${request.routeOptions.url ?? '/v1/responses'} (websocket)`;

export class SocketTurnObserver implements GenerationObservers {
  readonly progress: RunProgress = { count: 0 };
  readonly trace: RequestTrace | undefined;
  admission: Admission | null = null;
  private run: ChatRun | undefined;
  private readonly startedAt = performance.now();

  constructor(
    private readonly request: FastifyRequest,
    input: ChatInput,
  ) {
    this.trace = startGenerationTrace(request, input, true, this.startedAt);
  }

  /** Admits the turn: a refusal (429 past a limit or the budget, or 503 when limits fail closed) rejects before anything is generated. */
  async admit(): Promise<void> {
    const admitted = this.request.server.rateLimits?.admit(this.request.gatewayContext?.access?.name ?? null, true);
    this.admission = admitted === undefined ? null : isPromise(admitted) ? await admitted : admitted;
    await this.request.server.admitTurnBudget?.(this.request);
  }

  started(run: ChatRun): void {
    this.run = run;
    this.trace?.started({ model: run.model, lane: run.toolCalling, family: run.toolFormat });
  }

  /** The turn ended: `error` when it failed before or while answering. Gives its stream slot back. */
  ended(outcome: string, error?: unknown): void {
    const status = error === undefined ? 200 : toGatewayError(error).status;
    if (error !== undefined) this.trace?.failed(error);
    this.trace?.end(status, outcome);
    this.admission?.release();
    const model = this.run?.model ?? this.progress.target;
    this.request.server.metrics?.observeRequest({
      route: socketRoute(this.request),
      provider: model?.provider,
      model: model?.model,
      status,
      key: this.request.gatewayContext?.access?.name,
      durationMs: performance.now() - this.startedAt,
    });
  }
}
