/**
 * Gateway enforcement of `response_format` json_schema / json_object: the reply's text is validated at
 * its end (fences and prose stripped, one repair of near-JSON, then ajv), and when it still does not
 * match, `diagnostics.response_format_error` says why. A reply that called a tool is not checked: a
 * call is not the answer the schema describes.
 *
 * Streaming: the reply's JSON passes through as it comes, without the prose or code fence around it
 * (response-format-stream.ts), and the verdict rides on the finish event. A whole reply (an EventList)
 * whose JSON was recovered gets that JSON as its content. Either way a client can parse what it got.
 */
import { EventList } from '../core/event-list.js';
import type { ResponseFormat } from '../core/chat-request.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';
import { extractJsonReply } from './extract-json-reply.js';
import { logprobsPartialCode } from '../core/token-logprob.js';
import type { JsonRepair } from './repair-native-arguments.js';
import { jsonOpeners, StreamedJsonReply, type StreamEnd } from './response-format-stream.js';
import type { SchemaCheck } from './schema-validators.js';

export type ResponseFormatOptions = {
  format: ResponseFormat;
  check: SchemaCheck;
  repair?: JsonRepair;
  diagnostics: DiagnosticsCollector;
  /** A streamed reply's text goes on as written (agent_format `passthrough`), the verdict still on its last chunk. */
  streamAsWritten?: boolean;
};

/** True when the format asks for JSON (the only formats the gateway checks). */
export function asksForJson(format: ResponseFormat | null | undefined): format is Exclude<ResponseFormat, { type: 'text' }> {
  return format?.type === 'json_object' || format?.type === 'json_schema';
}

class ResponseFormatStage implements EventStage {
  private text = '';
  private called = false;
  finished = false;
  /** Text deltas of a whole reply, held so recovered JSON can replace them. */
  private readonly held: StreamEvent[] | undefined;
  /** A streamed reply's JSON, read as it comes so prose and fences around it do not reach the client. */
  private readonly streamed: StreamedJsonReply | undefined;
  /** The streamed reply's end was given out (text after it, past a tool call, goes on as written). */
  private streamEnded = false;
  /** A delta with log probabilities was rewritten (warned once). */
  private logprobsDropped = false;

  constructor(
    private readonly options: ResponseFormatOptions,
    whole: boolean,
  ) {
    this.held = whole ? [] : undefined;
    const { format } = options;
    this.streamed = whole || options.streamAsWritten || !asksForJson(format) ? undefined : new StreamedJsonReply(jsonOpeners(format));
  }

  push(event: StreamEvent, out: StreamEvent[]): void {
    switch (event.type) {
      case 'text-delta':
        this.text += event.delta;
        if (this.held) this.held.push(event);
        else if (this.streamed && !this.streamEnded) this.passStreamed(event, out);
        else out.push(event);
        return;
      case 'tool-call-start':
        // A call is not the answer the schema describes: text held so far goes on as written, and later text unread.
        this.endStreamed('cut-off', out);
        this.called = true;
        out.push(event);
        return;
      case 'finish':
        this.finished = true;
        this.endStreamed(stopOf(event.reason)?.unified === 'length' ? 'cut-off' : 'stop', out);
        this.release(out, stopOf(event.reason));
        out.push(event);
        return;
      case 'error':
        this.finished = true;
        this.endStreamed('cut-off', out);
        if (this.held) out.push(...this.held);
        out.push(event);
        return;
      default:
        out.push(event);
    }
  }

  end(out: StreamEvent[]): void {
    this.endStreamed('cut-off', out);
    if (this.held) out.push(...this.held);
  }

  /** A streamed delta as the client gets it: itself when it passes whole, else what of it passes (without its log probabilities). */
  private passStreamed(event: Extract<StreamEvent, { type: 'text-delta' }>, out: StreamEvent[]): void {
    const passed = (this.streamed as StreamedJsonReply).push(event.delta);
    if (passed === event.delta) return void out.push(event);
    if (event.logprobs) this.warnLogprobsDropped();
    if (passed) out.push({ type: 'text-delta', delta: passed });
  }

  private endStreamed(how: StreamEnd, out: StreamEvent[]): void {
    if (!this.streamed || this.streamEnded) return;
    this.streamEnded = true;
    const rest = this.streamed.end(how);
    if (rest) out.push({ type: 'text-delta', delta: rest });
  }

  private warnLogprobsDropped(): void {
    if (this.logprobsDropped) return;
    this.logprobsDropped = true;
    this.options.diagnostics.warn({
      code: logprobsPartialCode,
      message: 'The content is the JSON recovered from the reply, not the text the model wrote: its log probabilities are not returned.',
    });
  }

  /** The streamed text the client has is schema-valid JSON by itself. */
  private streamedIsValid(verdict: string): boolean {
    const passed = (this.streamed ? this.streamed.passed : this.text).trim();
    if (passed === verdict) return true;
    const { format, check } = this.options;
    try {
      const value = JSON.parse(passed) as unknown;
      return check(schemaOf(format), value).length === 0;
    } catch {
      return false;
    }
  }

  /** Judges the text and hands on what the client gets: the model's text, or (whole replies) the recovered JSON. */
  private release(out: StreamEvent[], stop: FinishReason | undefined): void {
    const verdict = this.called ? undefined : this.judge(stop);
    if (!this.held) {
      // Streamed text is already with the client: when it is not the valid JSON by itself, hand over the JSON.
      if (verdict !== undefined && !this.streamedIsValid(verdict))
        this.options.diagnostics.reportResponseFormat({
          code: 'repaired_json',
          message: 'The streamed text is schema-valid JSON only after fences, prose or near-JSON were mended; the JSON is in `json`.',
          errors: [],
          json: verdict,
        });
      return;
    }
    if (verdict !== undefined && verdict !== this.text) {
      out.push({ type: 'text-delta', delta: verdict });
      if (this.held.some((event) => event.type === 'text-delta' && event.logprobs)) this.warnLogprobsDropped();
    } else out.push(...this.held);
  }

  /**
   * The JSON text to return when the reply is valid, undefined otherwise (with diagnostics reported).
   * `stop`: how the reply ended when not of its own accord. At the token limit its JSON is not repaired: the
   * closers it lacks are missing because the model was stopped, and closing them would pass a truncated answer
   * (a list cut short) for a whole, schema-valid one. A refusal (Claude's `stop_reason: "refusal"`, which its
   * structured outputs docs say may not match the schema) is named as such, not as a reply that lost its JSON.
   */
  private judge(stop: FinishReason | undefined): string | undefined {
    const { format, check, repair, diagnostics } = this.options;
    const cutOff = stop?.unified === 'length';
    const extracted = extractJsonReply(this.text, cutOff ? undefined : repair);
    if (extracted.type === 'invalid') {
      const message = cutOff
        ? 'The reply was cut off at the output token limit before its JSON was complete.'
        : stop?.unified === 'content-filter' || stop?.refusal !== undefined
          ? `The model declined to answer (finish reason '${stop.raw ?? 'content_filter'}'): its reply is not the JSON asked for.`
          : 'The reply is not JSON, even after repair.';
      diagnostics.reportResponseFormat({ code: 'invalid_json', message, errors: [] });
      return undefined;
    }
    const errors = check(schemaOf(format), extracted.value);
    if (errors.length) {
      const name = format.type === 'json_schema' ? `schema '${format.name}'` : 'a JSON object';
      diagnostics.reportResponseFormat({ code: 'schema_mismatch', message: `The reply does not match ${name}.`, errors });
      return undefined;
    }
    return extracted.text;
  }
}

/** The schema a reply is checked against: `json_object` asks for any object. */
function schemaOf(format: ResponseFormatOptions['format']): Record<string, unknown> {
  return format.type === 'json_schema' ? (format.schema ?? {}) : { type: 'object' };
}

type FinishReason = Extract<StreamEvent, { type: 'finish' }>['reason'];
/**
 * The finish of a reply the model did not end of its own accord: cut off at the token limit, or declined (an
 * OpenAI refusal ends with `stop`, its words streamed as refusal deltas); undefined for an ordinary end.
 */
function stopOf(reason: FinishReason): FinishReason | undefined {
  return reason.unified === 'length' || reason.unified === 'content-filter' || reason.refusal !== undefined ? reason : undefined;
}

export function checkResponseFormat(events: AsyncIterable<StreamEvent>, options: ResponseFormatOptions): AsyncIterable<StreamEvent> {
  return applyStage(events, new ResponseFormatStage(options, events instanceof EventList));
}
