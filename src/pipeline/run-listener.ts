/** A run's options told how its reply ended, with the run it belongs to (src/pipeline/tap-reply.ts taps the reply). */
import type { ChatInput } from '../core/chat-request.js';
import type { GatewayError } from '../core/gateway-error.js';
import type { ChatRun, RunOptions } from './chat-run.js';
import { estimatedUsage } from './estimated-usage.js';
import type { PriceTable } from './price-table.js';
import type { ReplyListener, ReplySummary } from './tap-reply.js';

/** One object per run, rather than a closure per listener. */
export class RunListener implements ReplyListener {
  constructor(
    private readonly run: ChatRun,
    private readonly input: ChatInput,
    private readonly options: RunOptions,
    private readonly prices: PriceTable | undefined,
  ) {}

  finished(summary: ReplySummary): void {
    this.options.onFinish?.(summary, this.run);
  }

  failed(error: GatewayError): void {
    this.options.onError?.(error, this.run);
  }

  /**
   * Worked out only for a reply that ended without the upstream's usage. A whole reply's cost header is
   * written after this (its events are read before it is answered), so it carries the estimate, said to be one.
   */
  incomplete(outputCharacters: number): void {
    const usage = estimatedUsage(this.input, this.run.model, outputCharacters, this.prices);
    if (usage.costUsd !== undefined) {
      this.run.costUsd = usage.costUsd;
      this.run.costEstimated = true;
    }
    this.options.onIncomplete?.(usage, this.run.model);
  }
}
