/**
 * The prompted lane's return path: runs a family parser over the upstream's text deltas and turns
 * what it finds into neutral events (text, reasoning, tool-call start/delta/end with fresh indexes).
 */
import type { StreamEvent } from '../core/stream-event.js';
import type { ParsedEvent, ToolCallParser } from '../core/tool-format.js';
import { assertNever } from '../core/assert-never.js';
import { generateCallId } from '../core/random-id.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';

export type ParseOptions = {
  parser: ToolCallParser;
  diagnostics: DiagnosticsCollector;
  /** `parallel_tool_calls: false`: keep the first call only (with a warning). */
  singleCall: boolean;
  /**
   * agent_format `passthrough`: the upstream's text goes on untouched (markup included) and the parser
   * only contributes the calls, so what the model wrote can be debugged next to what was understood.
   */
  keepRawText?: boolean;
};

export async function* parseTextIntoCalls(events: AsyncIterable<StreamEvent>, options: ParseOptions): AsyncGenerator<StreamEvent> {
  const { parser, diagnostics } = options;
  let callCount = 0;
  let droppedCalls = 0;
  const usedIds = new Set<string>();

  function* convert(parsed: ParsedEvent[]): Generator<StreamEvent> {
    for (const event of parsed) {
      switch (event.type) {
        case 'text':
          if (event.text && !options.keepRawText) yield { type: 'text-delta', delta: event.text };
          break;
        case 'reasoning':
          if (event.text && !options.keepRawText) yield { type: 'reasoning-delta', delta: event.text };
          break;
        case 'tool-call': {
          if (options.singleCall && callCount >= 1) {
            droppedCalls++;
            break;
          }
          const index = callCount++;
          // Keep a model's own id (Kimi's functions.NAME:IDX) unless it would repeat.
          const id = event.id && !usedIds.has(event.id) ? event.id : generateCallId();
          usedIds.add(id);
          yield { type: 'tool-call-start', index, id, name: event.name };
          yield { type: 'tool-call-delta', index, argumentsDelta: event.arguments };
          yield { type: 'tool-call-end', index, arguments: event.arguments };
          break;
        }
        case 'tool-call-rejected':
        case 'tool-call-unparsed':
          diagnostics.report(event);
          break;
        default:
          assertNever(event, 'parsed event');
      }
    }
  }

  for await (const event of events) {
    switch (event.type) {
      case 'text-delta':
        if (options.keepRawText && event.delta) yield event;
        yield* convert(parser.push(event.delta));
        break;
      case 'finish':
        yield* convert(parser.finish());
        if (droppedCalls) {
          diagnostics.warn({
            code: 'parallel-tool-calls-dropped',
            message: `parallel_tool_calls is false: kept the first call and dropped ${droppedCalls} more.`,
          });
        }
        yield event;
        break;
      default:
        yield event;
    }
  }
}
