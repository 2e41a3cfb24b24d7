/** Tells a listener how a reply ended (usage, calls, first-token time), passing every event on unchanged. */
import type { Diagnostics } from '../core/diagnostics.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Usage } from '../core/usage.js';
import { applyStage, type EventStage } from './event-stage.js';

export type ReplySummary = {
  usage: Usage;
  toolCalls: number;
  diagnostics?: Diagnostics;
  /** `performance.now()` when the first text, reasoning or call reached the stage; undefined if none did. */
  firstTokenAt?: number;
};

class ReplyTap implements EventStage {
  finished = false;
  private toolCalls = 0;
  private firstTokenAt: number | undefined;

  constructor(private readonly listener: (summary: ReplySummary) => void) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
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
        const summary: ReplySummary = { usage: event.usage, toolCalls: this.toolCalls };
        if (event.diagnostics) summary.diagnostics = event.diagnostics;
        if (this.firstTokenAt !== undefined) summary.firstTokenAt = this.firstTokenAt;
        this.listener(summary);
        break;
      }
      case 'error':
        this.finished = true;
        break;
      default:
        break;
    }
    out.push(event);
  }

  end(): void {}
}

export function tapReply(events: AsyncIterable<StreamEvent>, listener: (summary: ReplySummary) => void): AsyncIterable<StreamEvent> {
  return applyStage(events, new ReplyTap(listener));
}
