/**
 * A synchronous state machine from Anthropic Messages SSE events to neutral StreamEvents.
 * Event flow: https://docs.anthropic.com/en/api/messages-streaming
 */
import { gatewayError, type GatewayError, type StreamEvent, type Warning } from '../../src/core/index.js';
import type { ServerSentEvent } from '../../src/http/sse-decoder.js';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicStreamError } from './map-anthropic-stream-error.js';
import { mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';
import { asRecord, parseJsonLoosely, readNumber, readString, type JsonRecord } from '../../src/http/read-loose-json.js';

export type AnthropicStreamReaderOptions = {
  provider: string;
  /** The model the request named, used only if the upstream never says which one answered. */
  model: string;
  /** Request-side warnings, reported on `response-start`. */
  warnings: Warning[];
};

/** What we remember about an open content block, keyed by Anthropic's content block index. */
type BlockState =
  | { type: 'text' }
  | { type: 'thinking' }
  | { type: 'tool-use'; toolIndex: number; arguments: string; initialInput: string | undefined }
  /** A redacted_thinking block (whole in its start), server tools, citations…: nothing more to read. */
  | { type: 'ignored' };

export class AnthropicStreamReader {
  private started = false;
  private finished = false;
  private readonly blocks = new Map<number, BlockState>();
  private nextToolIndex = 0;
  private stopReason: string | null | undefined;
  private stopSequence: string | undefined;
  /** A refusal's `stop_details` (explanation and category), as far as it gave them. */
  private refusalDetails: { explanation?: string; category?: string } | undefined;
  private usage: JsonRecord | undefined;

  constructor(private readonly options: AnthropicStreamReaderOptions) {}

  /** True once the terminal `finish` or `error` was produced; later input is ignored. */
  get done(): boolean {
    return this.finished;
  }

  push(event: ServerSentEvent): StreamEvent[] {
    if (this.finished) return [];
    return this.pushPayload(parseJsonLoosely(event.data), event.event);
  }

  /** One event's parsed JSON; `eventName` (the SSE `event:` line) stands in when the payload has no `type`. */
  pushPayload(parsed: unknown, eventName?: string): StreamEvent[] {
    if (this.finished) return [];
    const payload = asRecord(parsed);
    if (!payload) {
      return this.fail(
        gatewayError('upstream_unavailable', { message: `Upstream provider '${this.options.provider}' sent an unreadable stream event` }),
      );
    }
    const type = readString(payload, 'type') ?? eventName;
    switch (type) {
      case 'message_start':
        return this.onMessageStart(asRecord(payload.message));
      case 'content_block_start':
        return [...this.ensureStarted(), ...this.onBlockStart(readNumber(payload, 'index'), asRecord(payload.content_block))];
      case 'content_block_delta':
        return [...this.ensureStarted(), ...this.onBlockDelta(readNumber(payload, 'index'), asRecord(payload.delta))];
      case 'content_block_stop':
        return [...this.ensureStarted(), ...this.onBlockStop(readNumber(payload, 'index'))];
      case 'message_delta':
        return this.onMessageDelta(asRecord(payload.delta), asRecord(payload.usage));
      case 'message_stop':
        return this.onMessageStop();
      case 'error':
        return this.fail(mapAnthropicStreamError(payload, this.options.provider));
      default:
        // `ping` and event types added after this adapter was written.
        return [];
    }
  }

  /** The body ended. Without `message_stop` the reply is incomplete, which is an upstream failure. */
  end(): StreamEvent[] {
    if (this.finished) return [];
    return this.fail(
      gatewayError('upstream_unavailable', {
        message: `Upstream provider '${this.options.provider}' stream ended early (no message_stop)`,
      }),
    );
  }

  /** Ends the stream with an error (transport failure, timeout, upstream error event). */
  fail(error: GatewayError): StreamEvent[] {
    if (this.finished) return [];
    this.finished = true;
    return [{ type: 'error', error }];
  }

  private ensureStarted(id = '', model = this.options.model): StreamEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'response-start', id, model, warnings: this.options.warnings }];
  }

  private onMessageStart(message: JsonRecord | undefined): StreamEvent[] {
    const usage = asRecord(message?.usage);
    if (usage) this.usage = mergeAnthropicUsage(this.usage, usage);
    return this.ensureStarted(readString(message, 'id') ?? '', readString(message, 'model') ?? this.options.model);
  }

  private onBlockStart(index: number | undefined, block: JsonRecord | undefined): StreamEvent[] {
    if (index === undefined || !block) return [];
    switch (readString(block, 'type')) {
      case 'text': {
        this.blocks.set(index, { type: 'text' });
        const text = readString(block, 'text');
        return text ? [{ type: 'text-delta', delta: text }] : [];
      }
      case 'thinking': {
        this.blocks.set(index, { type: 'thinking' });
        const events: StreamEvent[] = [];
        const thinking = readString(block, 'thinking');
        const signature = readString(block, 'signature');
        if (thinking) events.push({ type: 'reasoning-delta', delta: thinking });
        if (signature) events.push({ type: 'reasoning-signature', signature });
        return events;
      }
      case 'tool_use': {
        // Tool-call indexes count tool calls only (0..n), unlike content block indexes.
        const toolIndex = this.nextToolIndex++;
        const input = asRecord(block.input);
        const initialInput = input && Object.keys(input).length > 0 ? stringifyDeepJson(input) : undefined;
        this.blocks.set(index, { type: 'tool-use', toolIndex, arguments: '', initialInput });
        return [{ type: 'tool-call-start', index: toolIndex, id: readString(block, 'id') ?? '', name: readString(block, 'name') ?? '' }];
      }
      case 'redacted_thinking': {
        // Encrypted thinking arrives whole in the start event, and must go back to Claude unchanged in a tool loop
        // (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction).
        this.blocks.set(index, { type: 'ignored' });
        const data = readString(block, 'data');
        return data ? [{ type: 'reasoning-redacted', data }] : [];
      }
      default:
        this.blocks.set(index, { type: 'ignored' });
        return [];
    }
  }

  private onBlockDelta(index: number | undefined, delta: JsonRecord | undefined): StreamEvent[] {
    const block = index === undefined ? undefined : this.blocks.get(index);
    if (!block || !delta) return [];
    switch (readString(delta, 'type')) {
      case 'text_delta': {
        const text = readString(delta, 'text');
        return block.type === 'text' && text ? [{ type: 'text-delta', delta: text }] : [];
      }
      case 'thinking_delta': {
        const thinking = readString(delta, 'thinking');
        return block.type === 'thinking' && thinking ? [{ type: 'reasoning-delta', delta: thinking }] : [];
      }
      case 'signature_delta': {
        const signature = readString(delta, 'signature');
        return block.type === 'thinking' && signature ? [{ type: 'reasoning-signature', signature }] : [];
      }
      case 'input_json_delta': {
        // The first input_json_delta is usually "", which carries nothing.
        const fragment = readString(delta, 'partial_json');
        if (block.type !== 'tool-use' || !fragment) return [];
        block.arguments += fragment;
        return [{ type: 'tool-call-delta', index: block.toolIndex, argumentsDelta: fragment }];
      }
      default:
        return [];
    }
  }

  private onBlockStop(index: number | undefined): StreamEvent[] {
    const block = index === undefined ? undefined : this.blocks.get(index);
    if (index === undefined || !block) return [];
    this.blocks.delete(index);
    return block.type === 'tool-use' ? this.endToolCall(block) : [];
  }

  /** A call without argument fragments still gets one delta, so `arguments` equals the deltas joined. */
  private endToolCall(block: BlockState & { type: 'tool-use' }): StreamEvent[] {
    if (block.arguments !== '') return [{ type: 'tool-call-end', index: block.toolIndex, arguments: block.arguments }];
    const filler = block.initialInput ?? '{}';
    return [
      { type: 'tool-call-delta', index: block.toolIndex, argumentsDelta: filler },
      { type: 'tool-call-end', index: block.toolIndex, arguments: filler },
    ];
  }

  private onMessageDelta(delta: JsonRecord | undefined, usage: JsonRecord | undefined): StreamEvent[] {
    if (delta && 'stop_reason' in delta) {
      const stopReason = delta.stop_reason;
      if (typeof stopReason === 'string' || stopReason === null) this.stopReason = stopReason;
      if (typeof delta.stop_sequence === 'string') this.stopSequence = delta.stop_sequence;
      // A refusal's stop_details: `{"type":"refusal","category":…,"explanation":…}`.
      const details = delta.stop_details as JsonRecord | null | undefined;
      if (details) {
        this.refusalDetails = {};
        if (typeof details.explanation === 'string') this.refusalDetails.explanation = details.explanation;
        if (typeof details.category === 'string') this.refusalDetails.category = details.category;
      }
    }
    if (usage) this.usage = mergeAnthropicUsage(this.usage, usage);
    return this.ensureStarted();
  }

  private onMessageStop(): StreamEvent[] {
    const events = this.ensureStarted();
    // Tolerance: a tool block left open (no content_block_stop) is still closed with what it got.
    for (const block of this.blocks.values()) if (block.type === 'tool-use') events.push(...this.endToolCall(block));
    this.blocks.clear();
    this.finished = true;
    events.push({
      type: 'finish',
      reason: mapAnthropicStopReason(this.stopReason, this.stopSequence, this.refusalDetails),
      usage: mapAnthropicUsage(this.usage),
    });
    return events;
  }
}
