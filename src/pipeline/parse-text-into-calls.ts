/**
 * The prompted lane's return path: runs a family parser over the upstream's text deltas and turns
 * what it finds into neutral events (text, reasoning, tool-call start/delta/end with fresh indexes).
 */
import type { StreamEvent } from '../core/stream-event.js';
import type { ParsedEvent, ToolCallParser } from '../core/tool-format.js';
import { assertNever } from '../core/assert-never.js';
import { generateCallId } from '../core/random-id.js';
import type { RandomHexPool } from '../core/random-hex-pool.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';
import { logprobsPartialCode } from '../core/token-logprob.js';
import { ParsedTextLogprobs } from './parsed-text-logprobs.js';

export type ParseOptions = {
  /** The reply's parser, made at its first text: `startsInReasoning` is the option below unless reasoning came first. */
  createParser: (startsInReasoning: boolean) => ToolCallParser;
  /**
   * The template opened reasoning, so the text should begin inside it. Not when the upstream sends
   * reasoning of its own (or native calls) before any text: its server has a reasoning parser and the
   * text is the answer.
   */
  startsInReasoning?: boolean;
  diagnostics: DiagnosticsCollector;
  /** `parallel_tool_calls: false`: keep the first call only (with a warning). */
  singleCall: boolean;
  /**
   * agent_format `passthrough`: the upstream's text goes on untouched (markup included) and the parser
   * only contributes the calls, so what the model wrote can be debugged next to what was understood.
   */
  keepRawText?: boolean;
  /** Where the ids of calls the model named none come from (the app's pool); a UUID each without it. */
  callIds?: RandomHexPool;
};

/** Parser output → neutral events, numbering calls and keeping ids unique across the reply. */
class ParsedEventConverter {
  callCount = 0;
  droppedCalls = 0;
  private readonly usedIds = new Set<string>();

  constructor(private readonly options: ParseOptions) {}

  /** Appends to `out` rather than yielding: no generator, and no async wrapper around one, per parser step. */
  convert(parsed: readonly ParsedEvent[], out: StreamEvent[]): void {
    const { options } = this;
    for (const event of parsed) {
      switch (event.type) {
        case 'text':
          if (event.text && !options.keepRawText) out.push({ type: 'text-delta', delta: event.text });
          break;
        case 'reasoning':
          if (event.text && !options.keepRawText) out.push({ type: 'reasoning-delta', delta: event.text });
          break;
        case 'tool-call': {
          if (options.singleCall && this.callCount >= 1) {
            this.droppedCalls++;
            break;
          }
          const index = this.callCount++;
          // Keep a model's own id (Kimi's functions.NAME:IDX) unless it would repeat.
          const id = event.id && !this.usedIds.has(event.id) ? event.id : generateCallId(options.callIds);
          this.usedIds.add(id);
          out.push({ type: 'tool-call-start', index, id, name: event.name });
          out.push({ type: 'tool-call-delta', index, argumentsDelta: event.arguments });
          out.push({ type: 'tool-call-end', index, arguments: event.arguments });
          break;
        }
        case 'tool-call-rejected':
        case 'tool-call-unparsed':
          options.diagnostics.report(event);
          break;
        case 'warning':
          options.diagnostics.warn({ code: event.code, message: event.message });
          break;
        default:
          assertNever(event, 'parsed event');
      }
    }
  }
}

class ParseTextStage implements EventStage {
  private readonly converter: ParsedEventConverter;
  private parser: ToolCallParser | undefined;
  private structuredFirst = false;
  /** The upstream's own call indexes → this reply's (absent until the upstream sends a call). */
  private nativeIndexes: Map<number, number> | undefined;
  /** Nothing after a finish or an error is read: the parser is done, and so is the reply. */
  finished = false;
  /** The tokens of the text, when its first delta brought some (the client asked for log probabilities). */
  private logprobs: ParsedTextLogprobs | undefined;

  constructor(private readonly options: ParseOptions) {
    this.converter = new ParsedEventConverter(options);
  }

  push(event: StreamEvent, out: StreamEvent[]): void {
    const { options, converter } = this;
    switch (event.type) {
      case 'text-delta': {
        if (options.keepRawText) {
          // The text goes on as it came, tokens and all.
          if (event.delta) out.push(event);
          converter.convert(this.replyParser().push(event.delta), out);
          return;
        }
        // The parser is made at the first text: that delta says whether this reply has tokens to follow.
        if (event.logprobs && this.parser === undefined) this.logprobs = new ParsedTextLogprobs();
        const { logprobs } = this;
        if (!logprobs) {
          converter.convert(this.replyParser().push(event.delta), out);
          return;
        }
        const from = out.length;
        logprobs.received(event.delta, event.logprobs);
        converter.convert(this.replyParser().push(event.delta), out);
        logprobs.attach(out, from);
        return;
      }
      case 'reasoning-delta':
        // The upstream's server read the reply's structure itself (reasoning, native calls) before any text.
        if (this.parser === undefined && event.delta !== '') this.structuredFirst = true;
        out.push(event);
        return;
      case 'tool-call-start':
        if (this.parser === undefined) this.structuredFirst = true;
        out.push(this.renumbered(event));
        return;
      case 'tool-call-delta':
      case 'tool-call-end':
        out.push(this.renumbered(event));
        return;
      case 'finish': {
        const from = out.length;
        converter.convert(this.replyParser().finish(), out);
        this.attachFinalLogprobs(out, from);
        if (converter.droppedCalls) {
          options.diagnostics.warn({
            code: 'parallel-tool-calls-dropped',
            message: `parallel_tool_calls is false: kept the first call and dropped ${converter.droppedCalls} more.`,
          });
        }
        out.push(event);
        this.finished = true;
        return;
      }
      case 'error':
        out.push(event);
        this.finished = true;
        return;
      default:
        out.push(event);
    }
  }

  /**
   * The native lane reads the text of a server that parses calls too (its parser may miss some): the
   * server's calls and those read from the text share one numbering, in the order they began.
   */
  private renumbered<Event extends StreamEvent & { index: number }>(event: Event): Event {
    let index = this.nativeIndexes?.get(event.index);
    if (index === undefined) {
      index = this.converter.callCount++;
      (this.nativeIndexes ??= new Map()).set(event.index, index);
    }
    return index === event.index ? event : { ...event, index };
  }

  /** The tokens of the text the parser released at the end, and a warning for those it could not return. */
  private attachFinalLogprobs(out: StreamEvent[], from: number): void {
    const { logprobs } = this;
    if (!logprobs) return;
    logprobs.attach(out, from);
    if (logprobs.withheld())
      this.options.diagnostics.warn({
        code: logprobsPartialCode,
        message:
          'Log probabilities cover only the content text the parser passed through as the model wrote it: the tokens of text that became tool calls or reasoning, and of any text after it, are not returned.',
      });
  }

  private replyParser(): ToolCallParser {
    this.parser ??= this.options.createParser(this.options.startsInReasoning === true && !this.structuredFirst);
    return this.parser;
  }

  end(): void {
    // A stream cut off before its finish: the finalize stage reports it.
  }
}

export function parseTextIntoCalls(events: AsyncIterable<StreamEvent>, options: ParseOptions): AsyncIterable<StreamEvent> {
  return applyStage(events, new ParseTextStage(options));
}
