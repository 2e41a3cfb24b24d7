/**
 * Bedrock Converse replies as neutral events, whole (ConverseCommand's output) or streamed (ConverseStream's
 * events: messageStart, contentBlockStart/Delta/Stop, messageStop, metadata, and in-band exceptions),
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html. Finish reasons
 * and usage keep their raw values.
 */
import type { ContentBlock, ConverseOutput, ConverseStreamOutput, TokenUsage } from '@aws-sdk/client-bedrock-runtime';
import type { FinishReason, UnifiedFinishReason } from '../../src/core/finish-reason.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';
import type { Usage } from '../../src/core/usage.js';
import type { Warning } from '../../src/core/warning.js';
import { noToolsOfferedName } from './build-converse-request.js';
import { bedrockExceptionError, bedrockExceptionStatus } from './map-bedrock-error.js';

const unifiedReasons: Readonly<Record<string, UnifiedFinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
};

/** `onlyDroppedCalls`: the model called only the placeholder tool, which the client never sees: a stop, not tool calls. */
export function converseFinishReason(raw: string | undefined, onlyDroppedCalls = false): FinishReason {
  const unified = onlyDroppedCalls && raw === 'tool_use' ? 'stop' : raw === undefined ? undefined : unifiedReasons[raw];
  const reason: FinishReason = { unified: unified ?? 'other' };
  if (raw !== undefined) reason.raw = raw;
  return reason;
}

export function converseUsage(usage: TokenUsage | undefined): Usage {
  if (!usage) return {};
  const mapped: Usage = { raw: usage };
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  // Bedrock's inputTokens leave the cached ones out, as Anthropic's do: the neutral count is the whole prompt.
  if (usage.inputTokens !== undefined) mapped.inputTokens = usage.inputTokens + cacheRead + cacheWrite;
  if (usage.cacheReadInputTokens !== undefined) mapped.cachedInputTokens = cacheRead;
  if (usage.cacheWriteInputTokens !== undefined) mapped.cacheWriteInputTokens = cacheWrite;
  if (usage.outputTokens !== undefined) mapped.outputTokens = usage.outputTokens;
  if (mapped.inputTokens !== undefined && mapped.outputTokens !== undefined) mapped.totalTokens = mapped.inputTokens + mapped.outputTokens;
  return mapped;
}

type Start = { id: string; model: string; warnings: Warning[] };

/**
 * Claude's encrypted reasoning (`reasoningContent.redactedContent`, bytes the SDK decoded from the wire's
 * base64) as base64 text again, the opaque data a Messages client holds as `redacted_thinking` and hands back.
 */
function redactedReasoning(bytes: Uint8Array): StreamEvent {
  return { type: 'reasoning-redacted', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

/** A whole reply's events, in stream order. */
export function wholeConverseEvents(
  output: { output?: ConverseOutput; stopReason?: string; usage?: TokenUsage },
  start: Start,
): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'response-start', ...start }];
  const blocks: ContentBlock[] = output.output?.message?.content ?? [];
  let index = 0;
  let dropped = false;
  for (const block of blocks) {
    if (block.toolUse?.name === noToolsOfferedName) {
      dropped = true;
      continue;
    }
    if (block.text !== undefined) events.push({ type: 'text-delta', delta: block.text });
    else if (block.reasoningContent?.reasoningText) {
      events.push({ type: 'reasoning-delta', delta: block.reasoningContent.reasoningText.text ?? '' });
      const signature = block.reasoningContent.reasoningText.signature;
      if (signature) events.push({ type: 'reasoning-signature', signature });
    } else if (block.toolUse) {
      const argumentsText = stringifyDeepJson(block.toolUse.input ?? {});
      events.push({ type: 'tool-call-start', index, id: block.toolUse.toolUseId ?? `call_${index}`, name: block.toolUse.name ?? '' });
      events.push({ type: 'tool-call-delta', index, argumentsDelta: argumentsText });
      events.push({ type: 'tool-call-end', index, arguments: argumentsText });
      index++;
    } else if (block.reasoningContent?.redactedContent) events.push(redactedReasoning(block.reasoningContent.redactedContent));
  }
  events.push({
    type: 'finish',
    reason: converseFinishReason(output.stopReason, dropped && index === 0),
    usage: converseUsage(output.usage),
  });
  return events;
}

/** The stream event's exception members, should the SDK hand one over as an event rather than throw it. */
const exceptionMembers = [
  'throttlingException',
  'serviceUnavailableException',
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
] as const;

/** An in-band exception as the error it means, with the status it has as a response (map-bedrock-error.ts). */
function streamException(event: ConverseStreamOutput, provider: string): StreamEvent | undefined {
  for (const member of exceptionMembers) {
    const exception = event[member];
    if (!exception) continue;
    const status = bedrockExceptionStatus(member) ?? 502;
    return { type: 'error', error: bedrockExceptionError({ name: member, message: exception.message, status, provider }) };
  }
  return undefined;
}

export async function* streamedConverseEvents(
  stream: AsyncIterable<ConverseStreamOutput>,
  start: Start,
  provider: string,
): AsyncIterable<StreamEvent> {
  yield { type: 'response-start', ...start };
  /** Bedrock's content block index → our call index, for tool-use blocks. */
  const calls = new Map<number, { index: number; text: string }>();
  /** Content blocks of calls to the placeholder tool: left out of the reply. */
  const droppedBlocks = new Set<number>();
  let stopReason: string | undefined;
  let usage: Usage = {};
  for await (const event of stream) {
    const failed = streamException(event, provider);
    if (failed) {
      yield failed;
      return;
    }
    const block = event.contentBlockStart;
    if (block?.start?.toolUse?.name === noToolsOfferedName) droppedBlocks.add(block.contentBlockIndex ?? -1);
    else if (block?.start?.toolUse) {
      const call = { index: calls.size, text: '' };
      calls.set(block.contentBlockIndex ?? calls.size, call);
      yield {
        type: 'tool-call-start',
        index: call.index,
        id: block.start.toolUse.toolUseId ?? `call_${call.index}`,
        name: block.start.toolUse.name ?? '',
      };
    }
    const delta = event.contentBlockDelta;
    if (delta?.delta) {
      const call = calls.get(delta.contentBlockIndex ?? -1);
      if (delta.delta.text !== undefined) yield { type: 'text-delta', delta: delta.delta.text };
      else if (delta.delta.toolUse?.input !== undefined && call) {
        call.text += delta.delta.toolUse.input;
        yield { type: 'tool-call-delta', index: call.index, argumentsDelta: delta.delta.toolUse.input };
      } else if (delta.delta.reasoningContent?.text !== undefined)
        yield { type: 'reasoning-delta', delta: delta.delta.reasoningContent.text };
      else if (delta.delta.reasoningContent?.signature)
        yield { type: 'reasoning-signature', signature: delta.delta.reasoningContent.signature };
      else if (delta.delta.reasoningContent?.redactedContent) yield redactedReasoning(delta.delta.reasoningContent.redactedContent);
    }
    const stop = event.contentBlockStop;
    if (stop) {
      const call = calls.get(stop.contentBlockIndex ?? -1);
      if (call) yield { type: 'tool-call-end', index: call.index, arguments: call.text || '{}' };
    }
    if (event.messageStop) stopReason = event.messageStop.stopReason;
    if (event.metadata) usage = converseUsage(event.metadata.usage);
  }
  yield { type: 'finish', reason: converseFinishReason(stopReason, droppedBlocks.size > 0 && calls.size === 0), usage };
}
