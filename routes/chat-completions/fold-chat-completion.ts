/** Folds the neutral event stream into one `chat.completion` body (the non-streaming response). */
import { assertNever } from '../../src/core/assert-never.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import { foldEvents, type StreamEvent } from '../../src/core/stream-event.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import { toOpenAiFinishReason, toOpenAiUsage } from '../shared/openai-wire.js';
import { appendTokens, type TokenLogprob } from '../../src/core/token-logprob.js';
import { toChatChoiceLogprobs } from '../shared/logprobs-wire.js';

type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type FoldResult = { body: Record<string, unknown> } | { error: GatewayError };

type CompletionMeta = { id: string; created: number; model: string };

/** The fold's state between events; `step` answers once the body (or the error) is known. */
class ChatCompletionFolder {
  private content = '';
  private reasoning = '';
  private readonly toolCalls: WireToolCall[] = [];
  /** The content's token log probabilities; absent until a text delta brings some. */
  private logprobs: TokenLogprob[] | undefined;
  /** A declined request's words as they came (OpenAI's `refusal`), and their tokens' log probabilities. */
  private refusal = '';
  private refusalLogprobs: TokenLogprob[] | undefined;

  constructor(private readonly meta: CompletionMeta) {}

  step(event: StreamEvent): FoldResult | undefined {
    switch (event.type) {
      case 'response-start':
      case 'reasoning-signature':
      // Chat Completions has no field for encrypted reasoning.
      case 'reasoning-redacted':
      case 'tool-call-delta':
        return undefined;
      case 'text-delta':
        this.content += event.delta;
        if (event.logprobs) this.logprobs = appendTokens(this.logprobs, event.logprobs);
        return undefined;
      case 'refusal-delta':
        this.refusal += event.delta;
        if (event.logprobs) this.refusalLogprobs = appendTokens(this.refusalLogprobs, event.logprobs);
        return undefined;
      case 'reasoning-delta':
        this.reasoning += event.delta;
        return undefined;
      case 'tool-call-start':
        this.toolCalls[event.index] = { id: event.id, type: 'function', function: { name: event.name, arguments: '' } };
        return undefined;
      case 'tool-call-end': {
        const call = this.toolCalls[event.index];
        if (call) call.function.arguments = event.arguments;
        return undefined;
      }
      case 'error':
        return { error: event.error };
      case 'finish':
        return { body: this.body(event) };
      default:
        return assertNever(event, 'stream event');
    }
  }

  private body(finish: Extract<StreamEvent, { type: 'finish' }>): Record<string, unknown> {
    const { content, reasoning, toolCalls, meta } = this;
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: content === '' && toolCalls.length ? null : content,
      refusal: null,
    };
    // A refusal goes where OpenAI puts one, in `refusal` (content null when there is none): OpenAI's words, or
    // the explanation the finish brings. Words Claude wrote before declining stay the content, as the stream
    // sent them, and its explanation is the refusal.
    const explanation = finish.reason.refusal;
    if (explanation !== undefined) {
      message.refusal = this.refusal + explanation;
      if (content === '') message.content = null;
    }
    if (toolCalls.length) message.tool_calls = toolCalls.filter(Boolean);
    if (reasoning) message.reasoning_content = reasoning;
    const body: Record<string, unknown> = {
      id: meta.id,
      object: 'chat.completion',
      created: meta.created,
      model: meta.model,
      choices: [
        {
          index: 0,
          message,
          logprobs: toChatChoiceLogprobs(this.logprobs, this.refusalLogprobs),
          finish_reason: toOpenAiFinishReason(finish.reason),
        },
      ],
    };
    const usage = toOpenAiUsage(finish.usage);
    if (usage) body.usage = usage;
    const diagnostics = renderDiagnostics(finish.diagnostics);
    if (diagnostics) body.diagnostics = diagnostics;
    return body;
  }
}

export async function foldChatCompletion(events: AsyncIterable<StreamEvent>, meta: CompletionMeta): Promise<FoldResult> {
  const folder = new ChatCompletionFolder(meta);
  const result = await foldEvents(events, (event) => folder.step(event));
  if (result === undefined) throw new Error('event stream ended without finish or error');
  return result;
}
