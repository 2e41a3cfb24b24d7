/**
 * The last stage before a route: merges pipeline warnings into `response-start`, makes
 * `finish` honest (tool-calls whenever a call was returned, stop when none was), attaches
 * diagnostics, and turns a stream that ends without finish into an in-band error.
 */
import { GatewayError } from '../core/gateway-error.js';
import type { FinishReason } from '../core/finish-reason.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Warning } from '../core/warning.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';

function honestReason(reason: FinishReason, callCount: number): FinishReason {
  if (callCount > 0 && (reason.unified === 'stop' || reason.unified === 'other')) return { ...reason, unified: 'tool-calls' };
  if (callCount === 0 && reason.unified === 'tool-calls') return { ...reason, unified: 'stop' };
  return reason;
}

export async function* finalizeEvents(
  events: AsyncIterable<StreamEvent>,
  options: { warnings: Warning[]; diagnostics: DiagnosticsCollector; provider: string },
): AsyncGenerator<StreamEvent> {
  let callCount = 0;
  let ended = false;
  for await (const event of events) {
    switch (event.type) {
      case 'response-start':
        yield { ...event, warnings: [...options.warnings, ...event.warnings] };
        for (const warning of event.warnings) options.diagnostics.warn(warning);
        break;
      case 'tool-call-start':
        callCount++;
        yield event;
        break;
      case 'finish': {
        ended = true;
        const diagnostics = options.diagnostics.result(event.diagnostics);
        const finish: StreamEvent = { type: 'finish', reason: honestReason(event.reason, callCount), usage: event.usage };
        if (diagnostics) finish.diagnostics = diagnostics;
        yield finish;
        return;
      }
      case 'error':
        ended = true;
        yield event;
        return;
      default:
        yield event;
    }
  }
  if (!ended) {
    yield {
      type: 'error',
      error: new GatewayError({
        status: 502,
        type: 'upstream_error',
        code: 'upstream_incomplete',
        message: `Upstream provider '${options.provider}' ended the stream without finishing.`,
      }),
    };
  }
}
