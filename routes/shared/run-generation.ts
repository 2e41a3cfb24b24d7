/**
 * The skeleton every generating route shares: pick the agent format, tie the client's disconnect to
 * the upstream request, run the pipeline, set the lane headers, then render either one JSON body or an
 * SSE stream, and log the request once. Routes supply only their wire rendering.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Cancellation } from '../../src/core/cancellation.js';
import type { ChatInput } from '../../src/core/chat-request.js';
import type { ProviderContext } from '../../src/core/provider-adapter.js';
import type { AgentFormat } from '../../src/pipeline/agent-format/agent-format.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { ChatRun, RunOptions, RunProgress } from '../../src/pipeline/chat-run.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { Admission } from '../../src/core/admission.js';
import { annotateRequest, logRequest } from '../../src/plugins/request-log.js';
import { requestContextOf } from '../../src/pipeline/request-context.js';
import type { RequestTrace } from '../../src/core/request-trace.js';
import type { ReplySummary } from '../../src/core/reply-summary.js';
import { hasTokenCounts, type Usage } from '../../src/core/usage.js';
import type { SpendReservation } from '../../src/core/spend-reservation.js';
import { chargeReply, remainingAfterReply } from './charge-reply.js';
import { watchClientAbort } from './client-abort.js';
import { sessionIdOf } from './session-id.js';
import { SseWriter } from './sse-writer.js';
import type { IncomingHttpHeaders } from 'node:http';
import { agentFormatHeader, type AgentFormatSelection } from '../../src/pipeline/agent-format/agent-format.js';

export type GenerationOptions = {
  pipeline: ChatPipeline;
  liveStreams: LiveStreamRegistry;
  input: ChatInput;
  stream: boolean;
  agentFormatFields: AgentFormatFields;
  /** The non-streaming body; throws (a GatewayError) when the run failed. */
  renderBody(run: ChatRun): Promise<unknown>;
  /** Writes the SSE stream; returns how it ended, for the request log. */
  renderStream(run: ChatRun, writer: SseWriter): Promise<string>;
  /** The frame a quiet stream gets (default: an SSE comment). */
  keepAliveFrame?: string;
};

export async function runGeneration(request: FastifyRequest, reply: FastifyReply, options: GenerationOptions): Promise<FastifyReply> {
  const { pipeline, input } = options;
  const agentFormat = selectAgentFormat(pipeline, request.headers, options.agentFormatFields);
  // The client's disconnect aborts the upstream request (one cancellation down to undici).
  const abort = watchClientAbort(reply);
  // A reply read whole is bounded in time (the pipeline caps its bytes).
  const deadline = options.stream ? undefined : pipeline.wholeReplyDeadlines.arm(abort.cancellation);
  const release = options.liveStreams.add(abort.cancellation);
  // The arrival, by fastify's clock on the reply.
  const trace = startGenerationTrace(request, input, options.stream, performance.now() - reply.elapsedTime);
  const requestContext = requestContextOf(request);
  requestContext.trace = trace ?? null;
  const progress: RunProgress = { count: 0 };
  // A budgeted key's chat reserves what it may cost until its real cost is charged (src/plugins/budgets.ts).
  let reservation: SpendReservation | undefined;
  try {
    if (requestContext.budget && request.server.reserveBudget) reservation = await request.server.reserveBudget(request, reply, input);
    const context = providerContext(request, abort.cancellation, !options.stream);
    trace?.bind(context);
    const run = await pipeline.run(
      input,
      context,
      generationRunOptions(request, pipeline, agentFormat.selection.format, { trace, progress, admission: requestContext.admission }),
    );
    trace?.started({ model: run.model, lane: run.toolCalling, family: run.toolFormat });
    annotateRequest(request, {
      provider: run.model.provider,
      model: run.model.model,
      toolCalling: run.toolCalling,
      toolFormat: run.toolFormat,
      stream: options.stream,
    });
    const headers: Record<string, string> = {
      'x-tool-calling': run.toolCalling,
      'x-agent-format': agentFormat.header,
      'x-interlingua-model': headerModel(run.model),
      'x-interlingua-attempts': String(run.attempts),
    };
    // A hijacked stream writes its own head, without what is set on the reply: the request id (the intake's)
    // and the rate-limit and budget headers go into it.
    if (options.stream) {
      headers['x-request-id'] = request.id;
      if (requestContext.admission) Object.assign(headers, requestContext.admission.headers);
      if (requestContext.budget?.headers) Object.assign(headers, requestContext.budget.headers);
    }
    if (run.toolFormat) headers['x-tool-format'] = run.toolFormat;
    if (run.deployment !== undefined) headers['x-interlingua-deployment'] = headerAddress(run.deployment);

    if (!options.stream) {
      // Set before rendering: a reply that ends in an error is answered with them too.
      void reply.headers(headers);
      const body = await options.renderBody(run);
      if (run.costUsd !== undefined) {
        void reply.header('x-interlingua-cost-usd', formatUsd(run.costUsd));
        if (run.costEstimated) void reply.header('x-interlingua-cost-estimated', 'true');
        const remaining = remainingAfterReply(requestContext.budget, run.costUsd);
        if (remaining !== undefined) void reply.header('x-interlingua-budget-remaining-usd', remaining);
      }
      return reply.send(body);
    }

    reply.hijack();
    const writer = new SseWriter(reply.raw, options.keepAliveFrame);
    writer.start(headers);
    const unwatch = options.liveStreams.keepAlive.watch(writer);
    let outcome: string;
    try {
      outcome = await options.renderStream(run, writer);
    } finally {
      unwatch();
    }
    writer.end();
    logRequest(request, reply, 200, outcome);
    return reply;
  } catch (error) {
    trace?.failed(error);
    if (!reply.raw.headersSent) {
      setProgressHeaders(reply, progress);
      // Every generation's reply names its agent format, an error's too (docs/tool-calling.md).
      void reply.header('x-agent-format', agentFormat.header);
    }
    throw error;
  } finally {
    // After the reply's cost was charged (onFinish, onIncomplete): the spend counts from here instead.
    if (reservation) void reservation.release();
    pipeline.wholeReplyDeadlines.disarm(deadline);
    release();
    abort.dispose();
  }
}

/** A generation's span when traces are on (an HTTP request's, or one WebSocket turn's); whoever answers ends it. */
export function startGenerationTrace(
  request: FastifyRequest,
  input: ChatInput,
  stream: boolean,
  startedAt: number,
): RequestTrace | undefined {
  return request.server.tracing?.startRequest({
    headers: request.headers,
    route: request.routeOptions.url ?? request.url,
    requestedModel: input.model,
    stream,
    options: input,
    ...(request.gatewayContext?.access?.name ? { keyName: request.gatewayContext.access.name } : {}),
    startedAt,
  });
}

const headerSafe = /^[\x20-\x7e]*$/;

/**
 * Which target answered, as configured (after fallbacks and aliases), beside `x-interlingua-attempts`
 * (upstream requests, retries and fallbacks included). A model name is the client's text: one a header
 * cannot carry is percent-encoded rather than allowed to fail the reply.
 */
function headerModel(model: ResolvedModel): string {
  return headerAddress(`${model.provider}/${model.model}`);
}

/** A `provider/model` as a header value (x-interlingua-deployment and -model). */
export function headerAddress(address: string): string {
  return headerSafe.test(address) ? address : encodeURIComponent(address);
}

/**
 * How many upstream requests were made and which target was tried last: for a run that failed before it
 * answered (the upstream refused, every fallback failed, a bad request), its error reply still says so;
 * an embeddings reply says so either way.
 */
export function setProgressHeaders(reply: FastifyReply, progress: RunProgress): void {
  void reply.header('x-interlingua-attempts', String(progress.count));
  if (progress.target) void reply.header('x-interlingua-model', headerModel(progress.target));
}

/** What one generation is observed by: its span, its progress (for the error reply), its rate-limit admission. */
export type GenerationObservers = { trace: RequestTrace | undefined; progress: RunProgress; admission: Admission | null };

/** The key's policy; how the reply ended goes to the key's token quota, to the metrics and to the trace. */
export function generationRunOptions(
  request: FastifyRequest,
  pipeline: ChatPipeline,
  agentFormat: AgentFormat,
  observers: GenerationObservers,
): RunOptions {
  const { trace, progress, admission } = observers;
  const options: RunOptions = { agentFormat, progress };
  const access = request.gatewayContext?.access;
  if (access) options.access = access;
  if (pipeline.keysSessions) {
    const sessionId = sessionIdOf(request.headers);
    if (sessionId) options.sessionId = sessionId;
  }
  const { metrics, usageLog } = request.server;
  const budget = request.gatewayContext?.budget;
  if (!admission && !metrics && !trace && !budget && !usageLog) return options;
  const startedAt = performance.now();
  options.onFinish = (summary, run) => {
    // A stream that crosses the budget finishes; its cost counts against the next request. The next
    // request's admission reads the spend and tokens: recorded now. The rest only observes (after-reply.ts).
    chargeReply(request, budget, admission, summary.usage);
    if (usageLog || metrics) request.server.afterReply.add(() => observeReply(request.server, summary, run, access?.name, startedAt));
    trace?.finished(summary);
  };
  options.onError = (error, run) => {
    metrics?.observeUpstreamError(run.model.provider, error);
    trace?.failed(error);
  };
  // Cut short before the upstream's usage came: its estimate is charged and logged all the same.
  options.onIncomplete = (usage, model) => {
    chargeReply(request, budget, admission, usage);
    trace?.estimated(usage);
    if (usageLog || metrics)
      request.server.afterReply.add(() => {
        recordUsage(request.server, model, access?.name, usage);
        metrics?.observeUsage(model.provider, model.model, access?.name, usage);
      });
  };
  return options;
}

function recordUsage(server: FastifyInstance, model: ResolvedModel, key: string | undefined, usage: Usage): void {
  server.usageLog?.record(key ?? 'anonymous', `${model.provider}/${model.model}`, usage);
}

/** The reply's usage row and metrics, at the end of the turn it finished in. */
function observeReply(server: FastifyInstance, summary: ReplySummary, run: ChatRun, key: string | undefined, startedAt: number): void {
  const { model } = run;
  // A reply the upstream counted nothing for is recorded once, by its estimate (onIncomplete).
  if (hasTokenCounts(summary.usage)) recordUsage(server, model, key, summary.usage);
  server.metrics?.observeReply({
    provider: model.provider,
    model: model.model,
    lane: run.toolCalling,
    family: run.toolFormat,
    key,
    startedAt,
    summary,
  });
}

/** A class, so that every request's context has one shape. */
class RouteProviderContext implements ProviderContext {
  constructor(
    readonly cancellation: Cancellation,
    readonly requestId: string,
    readonly log: ProviderContext['log'],
    readonly wholeReply: boolean,
  ) {}
}

export function providerContext(request: FastifyRequest, cancellation: Cancellation, wholeReply: boolean): ProviderContext {
  return new RouteProviderContext(cancellation, request.id, request.log, wholeReply);
}

/** The model a response echoes: as the client wrote it (`provider/model`, or the bare model on /{provider}/v1/…). */
export function echoedModel(input: ChatInput, run: ChatRun): string {
  return input.provider ? input.model : run.model.id;
}

/** A plain decimal (never an exponent), to the millionth of a cent. */
export function formatUsd(usd: number): string {
  // The shortest text of the rounded number is the answer unless it needs an exponent (below 1e-6):
  // cheaper than toFixed and two replaces on every priced reply.
  const rounded = Math.round(usd * 1e10) / 1e10;
  const shortest = String(rounded);
  if (!shortest.includes('e')) return shortest;
  const fixed = usd.toFixed(10);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

// A request's agent format, for any route, with the `x-agent-format` response header that names it and why.

export type AgentFormatFields = { field?: unknown; toolCallTags?: unknown };

export type RouteAgentFormat = { selection: AgentFormatSelection; header: string };

/** The extension fields as sent in a body whose schema does not list them (Responses, Messages). */
export function agentFormatFieldsOf(body: unknown): AgentFormatFields {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  return { field: record.agent_format, toolCallTags: record.tool_call_tags };
}

export function selectAgentFormat(pipeline: ChatPipeline, headers: IncomingHttpHeaders, fields: AgentFormatFields): RouteAgentFormat {
  const selection = pipeline.selectAgentFormat({ field: fields.field, toolCallTags: fields.toolCallTags, headers });
  return { selection, header: agentFormatHeader(selection) };
}
