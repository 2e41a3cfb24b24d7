/**
 * Neutral events → Responses output items and the stream events that build them, in the order the
 * SDKs' accumulators require: every item is announced (`output_item.added`) before its deltas and
 * closed (`output_item.done`) before the terminal `response.completed`. Streaming sends the events;
 * the non-streaming route ignores them and takes the final Response (one code path for both).
 */
import { randomHex } from '../../src/core/random-id.js';
import { assertNever } from '../../src/core/assert-never.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { Warning } from '../../src/core/warning.js';
import { appendTokens, type TokenLogprob } from '../../src/core/token-logprob.js';
import { toResponsesLogprobs } from '../shared/logprobs-wire.js';
import { CustomInputDecoder } from './custom-input-decoder.js';
import { encodeSignedReasoning } from './signed-reasoning.js';
import type { ToolKinds } from './parse-responses-tools.js';
import { buildResponseObject, type ResponseIdentity, type ResponseState } from './response-object.js';
import type {
  ItemStatus,
  WireCustomToolCallItem,
  WireFunctionCallItem,
  WireMessageItem,
  WireOutputItem,
  WireReasoningItem,
  WireRefusal,
  WireResponse,
  WireStreamEvent,
} from './responses-wire.js';

/**
 * `text`: undefined until the message's output_text part opens (a refusal alone has none); `textDone` once
 * that part is closed; `refusal`: the words of the refusal part that follows it.
 */
type OpenMessage = {
  outputIndex: number;
  id: string;
  text?: string;
  logprobs?: TokenLogprob[];
  textDone?: boolean;
  refusal?: string;
};
type OpenReasoning = { outputIndex: number; id: string; text: string; signature?: string };
type OpenCall = {
  outputIndex: number;
  item: WireFunctionCallItem | WireCustomToolCallItem;
  /** The argument text as received (for custom tools, still wrapped in `{"input": …}`). */
  rawArguments: string;
  decoder?: CustomInputDecoder;
  closed: boolean;
};

export type AssemblerOutcome =
  { type: 'response'; response: WireResponse } | { type: 'error'; error: GatewayError; response: WireResponse };

function itemId(prefix: string): string {
  return `${prefix}_${randomHex(24)}`;
}

/** `tokens`: the text's log probabilities, when the request asked for them and the upstream sent them. */
const outputText = (text: string, tokens?: readonly TokenLogprob[]) => ({
  type: 'output_text' as const,
  text,
  annotations: [],
  logprobs: tokens ? toResponsesLogprobs(tokens) : [],
});
const summaryText = (text: string) => ({ type: 'summary_text' as const, text });
const refusalPart = (refusal: string): WireRefusal => ({ type: 'refusal', refusal });

/** A message's parts as they stand: its text (when it has any), then its refusal. */
function messageContent(open: OpenMessage): WireMessageItem['content'] {
  const content: WireMessageItem['content'] = [];
  if (open.text !== undefined) content.push(outputText(open.text, open.logprobs));
  if (open.refusal !== undefined) content.push(refusalPart(open.refusal));
  return content;
}

/**
 * `response.error.code` is a closed enum in the spec, and Codex decides on it: it backs off on
 * `rate_limit_exceeded`, gives up on `context_length_exceeded` / `insufficient_quota` (which OpenAI
 * sends although the spec omits them), and retries the rest, so any other failure is `server_error`
 * (the message keeps the detail).
 */
const keptFailureCodes: ReadonlySet<string> = new Set([
  'rate_limit_exceeded',
  'context_length_exceeded',
  'insufficient_quota',
  'invalid_prompt',
]);

function failureCode(error: GatewayError): string {
  if (error.status === 429) return 'rate_limit_exceeded';
  return error.code !== null && keptFailureCodes.has(error.code) ? error.code : 'server_error';
}

export class ResponseAssembler {
  private sequence = 0;
  private readonly output: WireOutputItem[] = [];
  private message: OpenMessage | undefined;
  private reasoning: OpenReasoning | undefined;
  private readonly calls = new Map<number, OpenCall>();
  private result: AssemblerOutcome | undefined;

  constructor(
    private readonly identity: ResponseIdentity,
    private readonly options: { toolKinds: ToolKinds; warnings: Warning[] },
  ) {}

  /** Set once the terminal event (completed, incomplete or failed) has been produced. */
  get outcome(): AssemblerOutcome | undefined {
    return this.result;
  }

  /** `response.created` and `response.in_progress`. */
  start(): WireStreamEvent[] {
    const events: WireStreamEvent[] = [];
    const response = this.response({ status: 'in_progress', output: [] });
    this.emit(events, { type: 'response.created', response });
    this.emit(events, { type: 'response.in_progress', response });
    return events;
  }

  push(event: StreamEvent): WireStreamEvent[] {
    const events: WireStreamEvent[] = [];
    if (this.result) return events;
    switch (event.type) {
      // Claude's encrypted reasoning is left out: a Responses client could only return it inside a reasoning
      // item's encrypted_content, which carries signed thinking here (signed-reasoning.ts), not redacted blocks.
      case 'response-start':
      case 'reasoning-redacted':
        break;
      case 'reasoning-signature':
        this.reasoningSignature(events, event.signature);
        break;
      case 'text-delta':
        if (event.delta !== '') this.textDelta(events, event.delta, event.logprobs);
        break;
      case 'refusal-delta':
        if (event.delta !== '') this.refusalDelta(events, event.delta);
        break;
      case 'reasoning-delta':
        if (event.delta !== '') this.reasoningDelta(events, event.delta);
        break;
      case 'tool-call-start':
        this.callStart(events, event.index, event.id, event.name);
        break;
      case 'tool-call-delta':
        this.callDelta(events, event.index, event.argumentsDelta);
        break;
      case 'tool-call-end':
        this.closeCall(events, event.index, event.arguments, 'completed');
        break;
      case 'finish':
        this.finish(events, event);
        break;
      case 'error':
        this.fail(events, event.error);
        break;
      default:
        assertNever(event, 'stream event');
    }
    return events;
  }

  private finish(events: WireStreamEvent[], event: Extract<StreamEvent, { type: 'finish' }>): void {
    const { unified, refusal } = event.reason;
    if (refusal !== undefined) this.refuse(events, refusal);
    const incompleteReason = unified === 'length' ? 'max_output_tokens' : unified === 'content-filter' ? 'content_filter' : undefined;
    this.closeAll(events, incompleteReason ? 'incomplete' : 'completed');
    const state: ResponseState = { status: incompleteReason ? 'incomplete' : 'completed', output: this.output, usage: event.usage };
    if (incompleteReason) state.incompleteReason = incompleteReason;
    if (event.diagnostics) state.diagnostics = event.diagnostics;
    const response = this.response(state);
    this.emit(events, { type: incompleteReason ? 'response.incomplete' : 'response.completed', response });
    this.result = { type: 'response', response };
  }

  private fail(events: WireStreamEvent[], error: GatewayError): void {
    this.abandonOpenItems();
    const state: ResponseState = { status: 'failed', output: this.output, error: { code: failureCode(error), message: error.message } };
    if (this.options.warnings.length) state.diagnostics = { warnings: this.options.warnings };
    const response = this.response(state);
    this.emit(events, { type: 'response.failed', response });
    this.result = { type: 'error', error, response };
  }

  private response(state: ResponseState): WireResponse {
    return buildResponseObject(this.identity, state);
  }

  private emit(events: WireStreamEvent[], event: WireStreamEvent): void {
    const { type, ...rest } = event;
    events.push({ type, sequence_number: this.sequence++, ...rest });
  }

  private addItem(events: WireStreamEvent[], item: WireOutputItem): number {
    const outputIndex = this.output.length;
    this.output.push(item);
    // A copy: the stored item keeps changing until it is done.
    this.emit(events, { type: 'response.output_item.added', output_index: outputIndex, item: structuredClone(item) });
    return outputIndex;
  }

  private openMessage(events: WireStreamEvent[]): OpenMessage {
    const item: WireMessageItem = { id: itemId('msg'), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    const outputIndex = this.addItem(events, item);
    this.message = { outputIndex, id: item.id };
    return this.message;
  }

  private textDelta(events: WireStreamEvent[], delta: string, logprobs: TokenLogprob[] | undefined): void {
    if (this.reasoning) this.closeReasoning(events, 'completed');
    // The refusal part ends its message: text after it (a server that sends both) starts the next one.
    if (this.message?.refusal !== undefined) this.closeMessage(events, 'completed');
    const open = this.message ?? this.openMessage(events);
    if (open.text === undefined) {
      open.text = '';
      this.emit(events, {
        type: 'response.content_part.added',
        item_id: open.id,
        output_index: open.outputIndex,
        content_index: 0,
        part: outputText(''),
      });
    }
    open.text += delta;
    if (logprobs) open.logprobs = appendTokens(open.logprobs, logprobs);
    const { id, outputIndex } = open;
    this.emit(events, {
      type: 'response.output_text.delta',
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      delta,
      logprobs: logprobs ? toResponsesLogprobs(logprobs) : [],
    });
  }

  private reasoningDelta(events: WireStreamEvent[], delta: string): void {
    // A signed block is sealed: the next thinking block is an item of its own, with its own signature.
    if (this.reasoning?.signature) this.closeReasoning(events, 'completed');
    const open = this.reasoning ?? this.openReasoning(events);
    open.text += delta;
    this.emit(events, {
      type: 'response.reasoning_summary_text.delta',
      item_id: open.id,
      output_index: open.outputIndex,
      summary_index: 0,
      delta,
    });
  }

  private openReasoning(events: WireStreamEvent[]): OpenReasoning {
    if (this.message) this.closeMessage(events, 'completed');
    const item: WireReasoningItem = { id: itemId('rs'), type: 'reasoning', summary: [] };
    const outputIndex = this.addItem(events, item);
    this.reasoning = { outputIndex, id: item.id, text: '' };
    this.emit(events, {
      type: 'response.reasoning_summary_part.added',
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      part: summaryText(''),
    });
    return this.reasoning;
  }

  private closeText(events: WireStreamEvent[], open: OpenMessage): void {
    if (open.text === undefined || open.textDone) return;
    open.textDone = true;
    const { id, outputIndex, text, logprobs } = open;
    const base = { item_id: id, output_index: outputIndex, content_index: 0 };
    const part = outputText(text, logprobs);
    this.emit(events, { type: 'response.output_text.done', ...base, text, logprobs: part.logprobs });
    this.emit(events, { type: 'response.content_part.done', ...base, part });
  }

  /** Where the message's refusal part is: after its output_text, when it has one. */
  private refusalBase(open: OpenMessage): { item_id: string; output_index: number; content_index: number } {
    return { item_id: open.id, output_index: open.outputIndex, content_index: open.text === undefined ? 0 : 1 };
  }

  /**
   * A declined request ends the message with a `refusal` part, as OpenAI returns one: the words of an OpenAI
   * refusal as they stream, or the explanation Claude gives at the finish beside the text it had written (that
   * text, already streamed, stays the message's output_text). The part opens at the first words.
   */
  private openRefusal(events: WireStreamEvent[]): OpenMessage {
    this.closeReasoning(events, 'completed');
    const open = this.message ?? this.openMessage(events);
    if (open.refusal !== undefined) return open;
    this.closeText(events, open);
    open.refusal = '';
    this.emit(events, { type: 'response.content_part.added', ...this.refusalBase(open), part: refusalPart('') });
    return open;
  }

  private refusalDelta(events: WireStreamEvent[], delta: string): void {
    const open = this.openRefusal(events);
    open.refusal += delta;
    this.emit(events, { type: 'response.refusal.delta', ...this.refusalBase(open), delta });
  }

  /** At the finish: the explanation, when one came ('' for none, or when the words streamed already). */
  private refuse(events: WireStreamEvent[], explanation: string): void {
    if (explanation === '') this.openRefusal(events);
    else this.refusalDelta(events, explanation);
  }

  private closeRefusal(events: WireStreamEvent[], open: OpenMessage): void {
    const { refusal } = open;
    if (refusal === undefined) return;
    const base = this.refusalBase(open);
    this.emit(events, { type: 'response.refusal.done', ...base, refusal });
    this.emit(events, { type: 'response.content_part.done', ...base, part: refusalPart(refusal) });
  }

  private closeMessage(events: WireStreamEvent[], status: ItemStatus): void {
    const open = this.message;
    if (!open) return;
    this.message = undefined;
    this.closeText(events, open);
    this.closeRefusal(events, open);
    const item: WireMessageItem = { id: open.id, type: 'message', status, role: 'assistant', content: messageContent(open) };
    this.output[open.outputIndex] = item;
    this.emit(events, { type: 'response.output_item.done', output_index: open.outputIndex, item });
  }

  /** A signature seals the thinking it follows; one without thinking text still needs an item to ride on. */
  private reasoningSignature(events: WireStreamEvent[], signature: string): void {
    const open = this.reasoning ?? this.openReasoning(events);
    open.signature = (open.signature ?? '') + signature;
  }

  private closeReasoning(events: WireStreamEvent[], status: ItemStatus): void {
    const open = this.reasoning;
    if (!open) return;
    this.reasoning = undefined;
    const { id, outputIndex, text } = open;
    const base = { item_id: id, output_index: outputIndex, summary_index: 0 };
    this.emit(events, { type: 'response.reasoning_summary_text.done', ...base, text });
    this.emit(events, { type: 'response.reasoning_summary_part.done', ...base, part: summaryText(text) });
    const item: WireReasoningItem = { id, type: 'reasoning', summary: [summaryText(text)] };
    if (open.signature) item.encrypted_content = encodeSignedReasoning(text, open.signature);
    if (status === 'incomplete') item.status = status;
    this.output[outputIndex] = item;
    this.emit(events, { type: 'response.output_item.done', output_index: outputIndex, item });
  }

  private callStart(events: WireStreamEvent[], index: number, callId: string, name: string): void {
    // Text written before a call is a finished thought; text after it starts a new message.
    this.closeReasoning(events, 'completed');
    this.closeMessage(events, 'completed');
    const namespace = this.options.toolKinds.namespaces.get(name);
    const custom = this.options.toolKinds.custom.has(name);
    const item: WireFunctionCallItem | WireCustomToolCallItem = custom
      ? { id: itemId('ctc'), type: 'custom_tool_call', status: 'in_progress', call_id: callId, name, input: '' }
      : { id: itemId('fc'), type: 'function_call', status: 'in_progress', call_id: callId, name, arguments: '' };
    if (namespace !== undefined) item.namespace = namespace;
    const outputIndex = this.addItem(events, item);
    const call: OpenCall = { outputIndex, item, rawArguments: '', closed: false };
    if (custom) call.decoder = new CustomInputDecoder();
    this.calls.set(index, call);
  }

  private callDelta(events: WireStreamEvent[], index: number, delta: string): void {
    const call = this.calls.get(index);
    if (!call || call.closed || delta === '') return;
    call.rawArguments += delta;
    const base = { item_id: call.item.id, output_index: call.outputIndex };
    if (call.item.type === 'function_call') {
      call.item.arguments += delta;
      this.emit(events, { type: 'response.function_call_arguments.delta', ...base, delta });
      return;
    }
    const decoded = call.decoder?.push(delta) ?? '';
    if (decoded === '') return;
    call.item.input += decoded;
    this.emit(events, { type: 'response.custom_tool_call_input.delta', ...base, delta: decoded });
  }

  private closeCall(events: WireStreamEvent[], index: number, finalArguments: string | undefined, status: ItemStatus): void {
    const call = this.calls.get(index);
    if (!call || call.closed) return;
    call.closed = true;
    const { item, outputIndex } = call;
    const base = { item_id: item.id, output_index: outputIndex };
    const argumentsText = finalArguments ?? call.rawArguments;
    if (item.type === 'function_call') {
      item.arguments = argumentsText;
      this.emit(events, { type: 'response.function_call_arguments.done', ...base, name: item.name, arguments: item.arguments });
    } else {
      const { input, rest } = (call.decoder ?? new CustomInputDecoder()).finish(argumentsText);
      if (rest !== '') this.emit(events, { type: 'response.custom_tool_call_input.delta', ...base, delta: rest });
      item.input = input;
      this.emit(events, { type: 'response.custom_tool_call_input.done', ...base, input });
    }
    item.status = status;
    this.emit(events, { type: 'response.output_item.done', output_index: outputIndex, item: structuredClone(item) });
  }

  private closeAll(events: WireStreamEvent[], status: ItemStatus): void {
    this.closeReasoning(events, status);
    this.closeMessage(events, status);
    for (const index of [...this.calls.keys()].sort((left, right) => left - right)) this.closeCall(events, index, undefined, status);
  }

  /** On failure the open items stay in the output as they were, marked incomplete. */
  private abandonOpenItems(): void {
    if (this.message) {
      const { outputIndex, id } = this.message;
      this.output[outputIndex] = { id, type: 'message', status: 'incomplete', role: 'assistant', content: messageContent(this.message) };
    }
    if (this.reasoning) {
      const { outputIndex, id, text } = this.reasoning;
      this.output[outputIndex] = { id, type: 'reasoning', summary: [summaryText(text)], status: 'incomplete' };
    }
    for (const call of this.calls.values()) if (!call.closed) call.item.status = 'incomplete';
    this.message = undefined;
    this.reasoning = undefined;
  }
}
