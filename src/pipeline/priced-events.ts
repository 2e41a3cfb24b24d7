/**
 * The reply's events with its cost in the finish event's usage (and on the run, for the reply's header).
 * A stage (event-stage.ts) rather than an async generator, so a whole reply stays an EventList that every
 * later step reads in one synchronous pass.
 */
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Usage } from '../core/usage.js';
import { applyStage, type EventStage } from './event-stage.js';
import type { PriceTable } from './price-table.js';

class PricingStage implements EventStage {
  readonly finished = false;

  constructor(
    private readonly prices: PriceTable,
    private readonly run: { model: ResolvedModel; costUsd?: number },
  ) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    const costUsd = event.type === 'finish' ? this.prices.costOf(this.run.model, event.usage) : undefined;
    if (costUsd === undefined || event.type !== 'finish') {
      out.push(event);
      return;
    }
    this.run.costUsd = costUsd;
    // Literals of known shape, not spreads: a spread copies key by key into a new shape (µs per reply).
    const { usage } = event;
    const priced: Usage = {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
      cachedInputTokens: usage.cachedInputTokens,
      cacheWriteInputTokens: usage.cacheWriteInputTokens,
      costUsd,
      reasoningTokens: usage.reasoningTokens,
      raw: usage.raw,
    };
    out.push({ type: 'finish', reason: event.reason, usage: priced, diagnostics: event.diagnostics });
  }

  end(): void {}
}

export function pricedEvents(
  events: AsyncIterable<StreamEvent>,
  prices: PriceTable,
  run: { model: ResolvedModel; costUsd?: number },
): AsyncIterable<StreamEvent> {
  return applyStage(events, new PricingStage(prices, run));
}
