/**
 * Adds warnings only the route knows about (dropped server tools, ignored `top_k`) to the event
 * stream, so they reach the client in `diagnostics.warnings` beside the pipeline's own.
 */
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { Warning } from '../../src/core/warning.js';

export async function* withRouteWarnings(events: AsyncIterable<StreamEvent>, warnings: Warning[]): AsyncGenerator<StreamEvent> {
  if (warnings.length === 0) {
    yield* events;
    return;
  }
  for await (const event of events) {
    switch (event.type) {
      case 'response-start':
        yield { ...event, warnings: [...warnings, ...event.warnings] };
        break;
      case 'finish': {
        const diagnostics = event.diagnostics ?? {};
        yield { ...event, diagnostics: { ...diagnostics, warnings: [...warnings, ...(diagnostics.warnings ?? [])] } };
        break;
      }
      default:
        yield event;
    }
  }
}
