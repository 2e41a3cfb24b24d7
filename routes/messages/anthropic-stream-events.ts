/**
 * Neutral events → Anthropic Messages stream events (https://docs.anthropic.com/en/api/messages-streaming).
 * Anthropic streams one content block at a time and a block's index is its position in the final
 * `content` array, while neutral tool calls may interleave (OpenAI-compatible servers send parallel
 * calls' fragments alternately and end them all at finish). So blocks are queued in order of
 * appearance: the first unfinished block streams live, later ones buffer until it closes.
 */
import { assertNever } from '../../src/core/assert-never.js';
import type { Diagnostics } from '../../src/core/diagnostics.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { Warning } from '../../src/core/warning.js';
import { renderDiagnostics, type WireDiagnostics } from '../shared/render-diagnostics.js';
import {
  toAnthropicErrorBody,
  toAnthropicStopDetails,
  toAnthropicStopReason,
  toAnthropicUsage,
  type AnthropicErrorBody,
  type AnthropicStopDetails,
  type AnthropicStopReason,
  type AnthropicUsage,
} from './anthropic-wire.js';
import { ToolInputGate } from './tool-input-gate.js';

export type AnthropicContentBlockStart =
  | { type: 'text'; text: '' }
  | { type: 'thinking'; thinking: ''; signature: '' }
  /** Encrypted thinking streams whole in its start, as Claude streams it, and takes no delta. */
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, never> };

export type AnthropicDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string };

export type AnthropicStreamEvent =
  | { type: 'message_start'; message: Record<string, unknown> }
  | { type: 'ping' }
  | { type: 'content_block_start'; index: number; content_block: AnthropicContentBlockStart }
  | { type: 'content_block_delta'; index: number; delta: AnthropicDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: AnthropicStopReason; stop_sequence: string | null; stop_details?: AnthropicStopDetails };
      usage: AnthropicUsage;
      /** Gateway extension (README: What the gateway adds to responses), present only when there is something to report. */
      diagnostics?: WireDiagnostics;
    }
  | { type: 'message_stop' }
  | AnthropicErrorBody;

type Block = {
  index: number;
  kind: 'text' | 'thinking' | 'redacted' | 'tool';
  /** Content received while an earlier block was still streaming. */
  pending: string;
  pendingSignature: string;
  /** Text and thinking blocks take appends until another block starts (or a signature seals thinking). */
  sealed: boolean;
  /** Nothing more will arrive: the block can be closed once it is live. */
  complete: boolean;
  started: boolean;
  /** A redacted block's opaque data, whole. */
  redactedData?: string;
  toolId?: string;
  toolName?: string;
  /** Tool-call argument text received so far (to reconcile with `tool-call-end`). */
  arguments: string;
  /** Which of that text streams (tool blocks only). */
  input?: ToolInputGate;
};

export class AnthropicStreamEvents {
  private readonly blocks: Block[] = [];
  private readonly toolBlocks = new Map<number, Block>();
  /** Position of the block that is streaming live (the first one not yet closed). */
  private live = 0;
  private output: AnthropicStreamEvent[] = [];

  constructor(private readonly meta: { id: string; model: string }) {}

  /**
   * The neutral stream reports usage only at finish, so `message_start` carries zeros (as Anthropic's
   * own placeholder `output_tokens: 1`) and the real counts follow in `message_delta`.
   */
  start(): AnthropicStreamEvent[] {
    const message = {
      id: this.meta.id,
      type: 'message',
      role: 'assistant',
      model: this.meta.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    return [{ type: 'message_start', message }, { type: 'ping' }];
  }

  /** The wire events this neutral event releases (possibly none, possibly several buffered blocks). */
  push(event: StreamEvent): AnthropicStreamEvent[] {
    this.output = [];
    switch (event.type) {
      case 'response-start':
        break;
      case 'text-delta':
      // Anthropic's wire has no refusal member: a declined request's words (OpenAI's `refusal`) are the reply's
      // text, and the finish says `stop_reason: "refusal"`.
      case 'refusal-delta':
        // An empty delta carries nothing, and Anthropic rejects empty text blocks when they are replayed.
        if (event.delta !== '') this.appendContent('text', event.delta);
        break;
      case 'reasoning-delta':
        if (event.delta !== '') this.appendContent('thinking', event.delta);
        break;
      case 'reasoning-signature':
        this.appendSignature(event.signature);
        break;
      case 'tool-call-start': {
        const block = this.openBlock('tool');
        block.toolId = event.id;
        block.toolName = event.name;
        block.input = new ToolInputGate();
        this.toolBlocks.set(event.index, block);
        break;
      }
      case 'tool-call-delta': {
        const block = this.toolBlocks.get(event.index);
        if (block && event.argumentsDelta !== '') this.appendArguments(block, event.argumentsDelta);
        break;
      }
      case 'tool-call-end': {
        const block = this.toolBlocks.get(event.index);
        if (!block) break;
        // The end carries the whole text; deltas normally spelled all of it already.
        if (event.arguments.startsWith(block.arguments) && event.arguments.length > block.arguments.length) {
          this.appendArguments(block, event.arguments.slice(block.arguments.length));
        }
        block.complete = true;
        break;
      }
      case 'reasoning-redacted': {
        const block = this.openBlock('redacted');
        block.redactedData = event.data;
        block.complete = true;
        break;
      }
      case 'finish': {
        for (const block of this.blocks) block.complete = true;
        this.advance();
        const delta: Extract<AnthropicStreamEvent, { type: 'message_delta' }> = {
          type: 'message_delta',
          delta: { stop_reason: toAnthropicStopReason(event.reason), stop_sequence: event.reason.stopSequence ?? null },
          usage: toAnthropicUsage(event.usage),
        };
        const stopDetails = toAnthropicStopDetails(event.reason);
        if (stopDetails) delta.delta.stop_details = stopDetails;
        const diagnostics = renderDiagnostics(this.withInputWarnings(event.diagnostics));
        if (diagnostics) delta.diagnostics = diagnostics;
        this.output.push(delta, { type: 'message_stop' });
        return this.output;
      }
      case 'error':
        // Anthropic interrupts the stream with the error envelope as it is; open blocks stay open.
        return [toAnthropicErrorBody(event.error)];
      default:
        assertNever(event, 'stream event');
    }
    this.advance();
    return this.output;
  }

  private openBlock(kind: Block['kind']): Block {
    const last = this.blocks.at(-1);
    if (last && last.kind !== 'tool') {
      last.sealed = true;
      last.complete = true;
    }
    const block: Block = {
      index: this.blocks.length,
      kind,
      pending: '',
      pendingSignature: '',
      sealed: kind === 'tool' || kind === 'redacted',
      complete: false,
      started: false,
      arguments: '',
    };
    this.blocks.push(block);
    return block;
  }

  private appendContent(kind: 'text' | 'thinking', text: string): void {
    const last = this.blocks.at(-1);
    const block = last && last.kind === kind && !last.sealed ? last : this.openBlock(kind);
    if (this.isStreaming(block)) this.emitDelta(block, text);
    else block.pending += text;
  }

  private appendArguments(block: Block, text: string): void {
    block.arguments += text;
    const passed = block.input?.pass(text) ?? text;
    if (passed === '') return;
    if (this.isStreaming(block)) this.emitDelta(block, passed);
    else block.pending += passed;
  }

  /** The reply's diagnostics plus what the Messages wire itself reports (a tool input that was not an object). */
  private withInputWarnings(diagnostics: Diagnostics | undefined): Diagnostics | undefined {
    const warnings: Warning[] = [];
    for (const block of this.toolBlocks.values()) {
      const warning = block.input?.warning(block.arguments, { id: block.toolId ?? '', name: block.toolName ?? '' });
      if (warning) warnings.push(warning);
    }
    if (warnings.length === 0) return diagnostics;
    return { ...diagnostics, warnings: [...(diagnostics?.warnings ?? []), ...warnings] };
  }

  /** A signature ends its thinking block; one without thinking text still needs a block to ride on. */
  private appendSignature(signature: string): void {
    const last = this.blocks.at(-1);
    const block = last && last.kind === 'thinking' && !last.sealed ? last : this.openBlock('thinking');
    if (this.isStreaming(block))
      this.emit({ type: 'content_block_delta', index: block.index, delta: { type: 'signature_delta', signature } });
    else block.pendingSignature += signature;
    block.sealed = true;
    block.complete = true;
  }

  private isStreaming(block: Block): boolean {
    return block.started && this.blocks[this.live] === block;
  }

  /** Starts the live block, flushes what it buffered, and closes it (and moves on) once complete. */
  private advance(): void {
    for (let block = this.blocks[this.live]; block; block = this.blocks[this.live]) {
      if (!block.started) {
        block.started = true;
        this.emit({ type: 'content_block_start', index: block.index, content_block: startOf(block) });
      }
      if (block.pending !== '') {
        this.emitDelta(block, block.pending);
        block.pending = '';
      }
      if (block.pendingSignature !== '') {
        this.emit({
          type: 'content_block_delta',
          index: block.index,
          delta: { type: 'signature_delta', signature: block.pendingSignature },
        });
        block.pendingSignature = '';
      }
      if (!block.complete) return;
      this.emit({ type: 'content_block_stop', index: block.index });
      this.live++;
    }
  }

  private emitDelta(block: Block, text: string): void {
    this.emit({ type: 'content_block_delta', index: block.index, delta: deltaOf(block.kind, text) });
  }

  private emit(event: AnthropicStreamEvent): void {
    this.output.push(event);
  }
}

function startOf(block: Block): AnthropicContentBlockStart {
  switch (block.kind) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'redacted':
      return { type: 'redacted_thinking', data: block.redactedData ?? '' };
    case 'tool':
      return { type: 'tool_use', id: block.toolId ?? '', name: block.toolName ?? '', input: {} };
    default:
      return assertNever(block.kind, 'block kind');
  }
}

function deltaOf(kind: Block['kind'], text: string): AnthropicDelta {
  switch (kind) {
    case 'text':
      return { type: 'text_delta', text };
    case 'thinking':
      return { type: 'thinking_delta', thinking: text };
    case 'redacted':
      // Never buffered: its data is whole in its start.
      throw new Error('a redacted_thinking block takes no delta');
    case 'tool':
      return { type: 'input_json_delta', partial_json: text };
    default:
      return assertNever(kind, 'block kind');
  }
}
