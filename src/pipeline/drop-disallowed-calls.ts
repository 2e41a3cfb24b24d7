/**
 * The native lane's half of a key's tool policy: a call the model makes to a tool the key may not use
 * (it was never offered, but models do invent names) is dropped and reported as `unavailable_tool`;
 * the calls after it are renumbered so indexes stay 0..n.
 */
import type { StreamEvent } from '../core/stream-event.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';

class DropDisallowedCalls implements EventStage {
  finished = false;
  /** Upstream index → the index the client sees; absent: dropped. */
  private readonly indexes = new Map<number, number>();
  private kept = 0;

  constructor(
    private readonly allows: (name: string) => boolean,
    private readonly diagnostics: DiagnosticsCollector,
  ) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
      case 'tool-call-start':
        if (this.allows(event.name)) {
          this.indexes.set(event.index, this.kept);
          out.push({ ...event, index: this.kept++ });
        } else {
          this.diagnostics.report({
            type: 'tool-call-rejected',
            code: 'unavailable_tool',
            message: `The model called "${event.name}", which this API key may not use`,
            text: event.name,
          });
        }
        return;
      case 'tool-call-delta':
      case 'tool-call-end': {
        const index = this.indexes.get(event.index);
        if (index !== undefined) out.push({ ...event, index });
        return;
      }
      case 'finish':
      case 'error':
        this.finished = true;
        out.push(event);
        return;
      default:
        out.push(event);
    }
  }

  end(): void {}
}

export function dropDisallowedCalls(
  events: AsyncIterable<StreamEvent>,
  allows: (name: string) => boolean,
  diagnostics: DiagnosticsCollector,
): AsyncIterable<StreamEvent> {
  return applyStage(events, new DropDisallowedCalls(allows, diagnostics));
}
