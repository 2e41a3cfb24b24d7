/** Tells a listener how a reply ended (usage, calls, first-token time) or that it failed, passing every event on unchanged. */
import type { GatewayError } from '../core/gateway-error.js';
import type { ReplySummary } from '../core/reply-summary.js';
import type { StreamEvent } from '../core/stream-event.js';
import { applyStage, type EventStage } from './event-stage.js';

class ReplyTap implements EventStage {
  finished = false;
  private toolCalls = 0;
  private firstTokenAt: number | undefined;
  private responseId: string | undefined;
  private responseModel: string | undefined;

  constructor(
    private readonly listener: (summary: ReplySummary) => void,
    private readonly onError: ((error: GatewayError) => void) | undefined,
  ) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
      case 'response-start':
        this.responseId = event.id;
        this.responseModel = event.model;
        break;
      case 'text-delta':
      case 'reasoning-delta':
        this.firstTokenAt ??= performance.now();
        break;
      case 'tool-call-start':
        this.firstTokenAt ??= performance.now();
        this.toolCalls++;
        break;
      case 'finish': {
        this.finished = true;
        const summary: ReplySummary = { usage: event.usage, finishReason: event.reason, toolCalls: this.toolCalls };
        if (this.responseId) summary.responseId = this.responseId;
        if (this.responseModel) summary.responseModel = this.responseModel;
        if (event.diagnostics) summary.diagnostics = event.diagnostics;
        if (this.firstTokenAt !== undefined) summary.firstTokenAt = this.firstTokenAt;
        this.listener(summary);
        break;
      }
      case 'error':
        this.finished = true;
        this.onError?.(event.error);
        break;
      default:
        break;
    }
    out.push(event);
  }

  end(): void {}
}

export function tapReply(
  events: AsyncIterable<StreamEvent>,
  listener: (summary: ReplySummary) => void,
  onError?: (error: GatewayError) => void,
): AsyncIterable<StreamEvent> {
  return applyStage(events, new ReplyTap(listener, onError));
}

export type { ReplySummary } from '../core/reply-summary.js';
