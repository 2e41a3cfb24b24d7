/**
 * The last stage before a route: merges pipeline warnings into `response-start`, makes
 * `finish` honest (tool-calls whenever a call was returned, stop when none was), attaches
 * diagnostics, turns a stream that ends without finish into an in-band error, and redacts configured
 * secrets from in-band errors (an upstream may echo its key in a mid-stream error).
 */
import { gatewayError } from '../core/gateway-error.js';
import type { FinishReason } from '../core/finish-reason.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Warning } from '../core/warning.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';

function honestReason(reason: FinishReason, callCount: number): FinishReason {
  if (callCount > 0 && (reason.unified === 'stop' || reason.unified === 'other')) return { ...reason, unified: 'tool-calls' };
  if (callCount === 0 && reason.unified === 'tool-calls') return { ...reason, unified: 'stop' };
  return reason;
}

export type FinalizeOptions = { warnings: Warning[]; diagnostics: DiagnosticsCollector; provider: string; redactor?: SecretRedactor };

class FinalizeStage implements EventStage {
  private callCount = 0;
  finished = false;

  constructor(private readonly options: FinalizeOptions) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
      case 'response-start':
        out.push({ ...event, warnings: [...this.options.warnings, ...event.warnings] });
        for (const warning of event.warnings) this.options.diagnostics.warn(warning);
        return;
      case 'tool-call-start':
        this.callCount++;
        out.push(event);
        return;
      case 'finish': {
        this.finished = true;
        const diagnostics = this.options.diagnostics.result(event.diagnostics);
        const finish: StreamEvent = { type: 'finish', reason: honestReason(event.reason, this.callCount), usage: event.usage };
        if (diagnostics) finish.diagnostics = diagnostics;
        out.push(finish);
        return;
      }
      case 'error': {
        this.finished = true;
        const { redactor } = this.options;
        // Spread: what else the event carries (output held back, for the estimate) goes on with it.
        out.push(redactor ? { ...event, error: redactor.redactError(event.error) } : event);
        return;
      }
      default:
        out.push(event);
    }
  }

  end(out: StreamEvent[]): void {
    out.push({
      type: 'error',
      error: gatewayError('upstream_incomplete', {
        message: `Upstream provider '${this.options.provider}' ended the stream without finishing.`,
      }),
    });
  }
}

export function finalizeEvents(events: AsyncIterable<StreamEvent>, options: FinalizeOptions): AsyncIterable<StreamEvent> {
  return applyStage(events, new FinalizeStage(options));
}
