/**
 * The child span of one upstream call (kind CLIENT): from the request leaving the gateway to the
 * upstream's last event, with the response id and model, first chunk, usage and finish reason. It is
 * an event stage that passes every event on unchanged.
 */
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { EventStage } from '../pipeline/event-stage.js';
import { genAi } from './gen-ai-attributes.js';
import { finishReasonValue, usageAttributes } from './reply-attributes.js';

export type UpstreamCall = {
  /** `performance.now()` when the call started. */
  startedAt: number;
  redact: (text: string) => string;
  /** The request's span is told of an upstream failure too. */
  onError: (error: GatewayError) => void;
};

export class UpstreamSpan implements EventStage {
  readonly finished = false;
  private ended = false;
  private firstChunkSeen = false;

  constructor(
    private readonly span: Span,
    private readonly call: UpstreamCall,
  ) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    out.push(event);
    if (this.ended) return;
    switch (event.type) {
      case 'response-start':
        if (event.id) this.span.setAttribute(genAi.responseId, event.id);
        if (event.model) this.span.setAttribute(genAi.responseModel, event.model);
        break;
      case 'text-delta':
      case 'refusal-delta':
      case 'reasoning-delta':
      case 'tool-call-start':
        if (!this.firstChunkSeen) this.firstChunk();
        break;
      case 'finish':
        this.span.setAttributes(usageAttributes(event.usage));
        this.span.setAttribute(genAi.responseFinishReasons, [finishReasonValue(event.reason)]);
        this.close();
        break;
      case 'error':
        this.fail(event.error);
        break;
      default:
        break;
    }
  }

  end(): void {
    if (!this.ended) this.fail(toGatewayError(new Error('The upstream stream ended without a finish.')));
  }

  /** The call failed before its first byte, or mid-stream. */
  fail(error: unknown): void {
    if (this.ended) return;
    const gatewayError = toGatewayError(error);
    this.span.setAttribute(ATTR_ERROR_TYPE, gatewayError.code ?? gatewayError.type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: this.call.redact(gatewayError.message) });
    this.call.onError(gatewayError);
    this.close();
  }

  /** Ends the span; a call its request outlived (the client went away) ends when the request does. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }

  private firstChunk(): void {
    this.firstChunkSeen = true;
    const now = performance.now();
    this.span.setAttribute(genAi.responseTimeToFirstChunk, (now - this.call.startedAt) / 1000);
    this.span.addEvent('gen_ai.first_chunk', now);
  }
}
