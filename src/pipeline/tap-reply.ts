/**
 * Tells a listener how a reply ended (usage, calls, first-token time) or that it failed, passing every event
 * on unchanged; and, when a reply ends without its usage (an error, a client that left, an upstream that
 * counted nothing), how much output was streamed before, so that what the upstream generated can still be charged.
 */
import type { GatewayError } from '../core/gateway-error.js';
import type { ReplySummary } from '../core/reply-summary.js';
import type { StreamEvent } from '../core/stream-event.js';
import { hasTokenCounts } from '../core/usage.js';
import { applyStage, type EventStage } from './event-stage.js';

/** Who is told how a reply ends: one object per reply (the pipeline's), not a closure per event kind. */
export interface ReplyListener {
  finished(summary: ReplySummary): void;
  failed(error: GatewayError): void;
  /**
   * The reply ended without its usage (an error event, a client that left, a finish the upstream sent no usage
   * with: then after `finished`), after streaming this much output (text, reasoning, calls).
   */
  incomplete(outputCharacters: number): void;
}

class ReplyTap implements EventStage {
  finished = false;
  private toolCalls = 0;
  /** Output streamed so far, for the estimate of a reply that ends without usage (a length added per delta). */
  private outputCharacters = 0;
  private firstTokenAt: number | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;

  constructor(private readonly listener: ReplyListener) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
      case 'response-start':
        this.responseId = event.id;
        this.responseModel = event.model;
        break;
      case 'text-delta':
      case 'refusal-delta':
      case 'reasoning-delta':
        this.firstTokenAt ??= performance.now();
        this.outputCharacters += event.delta.length;
        break;
      case 'tool-call-start':
        this.firstTokenAt ??= performance.now();
        this.toolCalls++;
        this.outputCharacters += event.name.length;
        break;
      case 'tool-call-delta':
        this.outputCharacters += event.argumentsDelta.length;
        break;
      case 'finish': {
        this.finished = true;
        const summary: ReplySummary = { usage: event.usage, finishReason: event.reason, toolCalls: this.toolCalls };
        if (this.responseId) summary.responseId = this.responseId;
        if (this.responseModel) summary.responseModel = this.responseModel;
        if (event.diagnostics) summary.diagnostics = event.diagnostics;
        if (this.firstTokenAt !== undefined) summary.firstTokenAt = this.firstTokenAt;
        this.listener.finished(summary);
        // Finished without any usage, the reply was still generated (and billed upstream): estimated as one cut short.
        if (!hasTokenCounts(event.usage)) this.listener.incomplete(this.outputCharacters);
        break;
      }
      case 'error':
        this.finished = true;
        this.listener.failed(event.error);
        // An error before any output is the upstream failing on its own, as an error status would (a fallback
        // would have taken over): nothing to charge. After output, what was generated was billed.
        if (this.outputCharacters > 0) this.listener.incomplete(this.outputCharacters);
        break;
      default:
        break;
    }
    out.push(event);
  }

  end(): void {}

  /** The client left, or the stream failed before an error event could be made of it. */
  stopped(): void {
    this.finished = true;
    this.listener.incomplete(this.outputCharacters);
  }
}

export function tapReply(events: AsyncIterable<StreamEvent>, listener: ReplyListener): AsyncIterable<StreamEvent> {
  return applyStage(events, new ReplyTap(listener));
}

export type { ReplySummary } from '../core/reply-summary.js';
