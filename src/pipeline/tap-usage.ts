/** Tells a listener the reply's usage when it finishes, passing every event on unchanged (token quotas, metrics). */
import type { StreamEvent } from '../core/stream-event.js';
import type { Usage } from '../core/usage.js';
import { applyStage, type EventStage } from './event-stage.js';

class UsageTap implements EventStage {
  finished = false;

  constructor(private readonly listener: (usage: Usage) => void) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    if (event.type === 'finish') {
      this.finished = true;
      this.listener(event.usage);
    } else if (event.type === 'error') this.finished = true;
    out.push(event);
  }

  end(): void {}
}

export function tapUsage(events: AsyncIterable<StreamEvent>, listener: (usage: Usage) => void): AsyncIterable<StreamEvent> {
  return applyStage(events, new UsageTap(listener));
}
