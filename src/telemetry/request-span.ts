/**
 * One request's span (kind SERVER, named `chat {model}` as the GenAI conventions name inference
 * spans): the request's parameters, the lane and family, the key's name, what the reply came to,
 * the HTTP status, and an error status on failure. Its upstream calls are child spans.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import type { GenerationOptions } from '../core/chat-request.js';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ReplySummary } from '../pipeline/tap-reply.js';
import { gateway, genAi, type GenAiProviderNames } from './gen-ai-attributes.js';
import type { RequestTrace, RequestTraceRun, RequestTraceStart } from './gateway-tracing.js';
import { estimatedUsageAttributes, finishReasonValue, usageAttributes } from './reply-attributes.js';
import type { Usage } from '../core/usage.js';
import { UpstreamSpan } from './upstream-span.js';
import type { UpstreamEndpoint } from './upstream-endpoint.js';

/** The generation options the client gave (null and absent ones are left out), as GenAI request attributes. */
function requestAttributes(start: RequestTraceStart): Attributes {
  const attributes: Attributes = {
    [genAi.operationName]: 'chat',
    [genAi.requestModel]: start.requestedModel,
    [genAi.requestStream]: start.stream,
    [gateway.route]: start.route,
  };
  const options: GenerationOptions = start.options;
  if (typeof options.maxOutputTokens === 'number') attributes[genAi.requestMaxTokens] = options.maxOutputTokens;
  if (typeof options.temperature === 'number') attributes[genAi.requestTemperature] = options.temperature;
  if (typeof options.topP === 'number') attributes[genAi.requestTopP] = options.topP;
  if (typeof options.seed === 'number') attributes[genAi.requestSeed] = options.seed;
  if (typeof options.presencePenalty === 'number') attributes[genAi.requestPresencePenalty] = options.presencePenalty;
  if (typeof options.frequencyPenalty === 'number') attributes[genAi.requestFrequencyPenalty] = options.frequencyPenalty;
  if (options.stop?.length) attributes[genAi.requestStopSequences] = options.stop;
  if (start.keyName) attributes[gateway.keyName] = start.keyName;
  return attributes;
}

/** What every span of one tracer shares. */
export type SpanSetting = {
  tracer: Tracer;
  /** Applied to every error message a span carries. */
  redact: (text: string) => string;
};

export type RequestSpanSetting = SpanSetting & {
  /** Provider contexts → their request's span, so that upstream calls find their parent. */
  bindings: WeakMap<object, RequestSpan>;
  endpoints: ReadonlyMap<string, UpstreamEndpoint>;
  genAiProviderName: GenAiProviderNames;
};

export class RequestSpan implements RequestTrace {
  private readonly span: Span;
  private readonly context: Context;
  private readonly upstreamCalls: UpstreamSpan[] = [];
  private failure: GatewayError | undefined;
  private ended = false;

  constructor(
    private readonly setting: RequestSpanSetting,
    parent: Context,
    private readonly start: RequestTraceStart,
  ) {
    this.span = setting.tracer.startSpan(
      `chat ${start.requestedModel}`,
      { kind: SpanKind.SERVER, startTime: start.startedAt, attributes: requestAttributes(start) },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
  }

  bind(context: object): void {
    this.setting.bindings.set(context, this);
  }

  started(run: RequestTraceRun): void {
    this.span.updateName(`chat ${run.model.model}`);
    const attributes: Attributes = {
      [genAi.requestModel]: run.model.model,
      [genAi.providerName]: this.setting.genAiProviderName(run.model.providerType),
      [gateway.provider]: run.model.provider,
      [gateway.lane]: run.lane,
    };
    if (run.family) attributes[gateway.family] = run.family;
    this.span.setAttributes(attributes);
    const endpoint = this.setting.endpoints.get(run.model.provider);
    if (endpoint) this.span.setAttributes(endpoint.attributes);
  }

  finished(summary: ReplySummary): void {
    const attributes: Attributes = {
      ...usageAttributes(summary.usage),
      [genAi.responseFinishReasons]: [finishReasonValue(summary.finishReason)],
      [gateway.toolCallsParsed]: summary.toolCalls,
    };
    if (summary.responseId) attributes[genAi.responseId] = summary.responseId;
    if (summary.responseModel) attributes[genAi.responseModel] = summary.responseModel;
    if (summary.diagnostics?.toolCallError) attributes[gateway.toolCallsRejected] = 1;
    if (summary.diagnostics?.unparsedToolCall) attributes[gateway.toolCallsUnparsed] = 1;
    if (summary.firstTokenAt !== undefined) {
      attributes[genAi.responseTimeToFirstChunk] = (summary.firstTokenAt - this.start.startedAt) / 1000;
      this.span.addEvent('gen_ai.first_chunk', summary.firstTokenAt);
    }
    this.span.setAttributes(attributes);
  }

  estimated(usage: Usage): void {
    this.span.setAttributes(estimatedUsageAttributes(usage));
  }

  failed(error: unknown): void {
    this.failure ??= toGatewayError(error);
  }

  /** A child span for one upstream call (several with retries or fallbacks). */
  startUpstream(model: string, endpoint: UpstreamEndpoint): UpstreamSpan {
    const call = startUpstreamSpan(this.setting, this.context, model, endpoint, (error) => this.failed(error));
    this.upstreamCalls.push(call);
    return call;
  }

  end(statusCode: number, outcome?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
    if (outcome) this.span.setAttribute(gateway.outcome, outcome);
    const failure = this.failure;
    if (failure) this.span.setAttribute(ATTR_ERROR_TYPE, failure.code ?? failure.type);
    // As for HTTP server spans, a 4xx is the client's and leaves the status unset.
    if (statusCode >= 500 || outcome === 'error') {
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: failure
          ? this.setting.redact(failure.message)
          : `The reply ended with ${outcome === 'error' ? 'an error' : `status ${statusCode}`}.`,
      });
      if (!failure) this.span.setAttribute(ATTR_ERROR_TYPE, outcome === 'error' ? 'stream_error' : String(statusCode));
    }
    for (const call of this.upstreamCalls) call.close();
    this.span.end();
  }
}

/** An upstream call's span, under `parent` (a request's span, or the incoming context of a call made outside one). */
export function startUpstreamSpan(
  setting: SpanSetting,
  parent: Context,
  model: string,
  endpoint: UpstreamEndpoint,
  onError: (error: GatewayError) => void,
): UpstreamSpan {
  const startedAt = performance.now();
  const attributes: Attributes = { [genAi.operationName]: 'chat', [genAi.requestModel]: model, ...endpoint.attributes };
  const span = setting.tracer.startSpan(`chat ${model}`, { kind: SpanKind.CLIENT, startTime: startedAt, attributes }, parent);
  return new UpstreamSpan(span, { startedAt, redact: setting.redact, onError });
}
