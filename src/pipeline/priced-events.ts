/** The reply's events with its cost in the finish event's usage (and on the run, for the reply's header). */
import type { StreamEvent } from '../core/stream-event.js';
import type { Usage } from '../core/usage.js';

export async function* pricedEvents(
  events: AsyncIterable<StreamEvent>,
  costOf: (usage: Usage) => number | undefined,
  run: { costUsd?: number },
): AsyncIterable<StreamEvent> {
  for await (const event of events) {
    if (event.type !== 'finish') {
      yield event;
      continue;
    }
    const costUsd = costOf(event.usage);
    if (costUsd === undefined) {
      yield event;
      continue;
    }
    run.costUsd = costUsd;
    yield { ...event, usage: { ...event.usage, costUsd } };
  }
}
