/** OpenAI Chat Completions stream chunks → neutral StreamEvents (tolerant of compatible servers). */
import type { Cancellation } from '../../src/core/cancellation.js';
import type { FinishReason } from '../../src/core/finish-reason.js';
import { gatewayError } from '../../src/core/gateway-error.js';
import { replayEvents, type StreamEvent } from '../../src/core/stream-event.js';
import type { Usage } from '../../src/core/usage.js';
import { readTokenLogprobs } from '../read-token-logprobs.js';
import type { Warning } from '../../src/core/warning.js';
import type { DecodeState } from './decode-chat-completion-chunks.js';
import { OpenAiToolCallTracker, type ToolCallFragment } from './openai-tool-call-tracker.js';
import { errorFromAbort, errorFromTransportFailure } from '../../src/http/upstream-error.js';

type LooseDelta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  /** OpenAI streams a declined request here instead of in `content`. */
  refusal?: string | null;
  tool_calls?: ToolCallFragment[] | null;
};

/**
 * Which stop string ended the reply, where the server says so: vLLM's `stop_reason` ("The stop string or
 * token id that caused the completion to stop", ChatCompletionResponseChoice and its stream choice in
 * vllm/entrypoints/openai/protocol.py), SGLang's `matched_stop` (python/sglang/srt/entrypoints/openai/protocol.py).
 * A token id is a number: no stop string.
 */
type MatchedStop = { stop_reason?: unknown; matched_stop?: unknown };

/**
 * A choice's `logprobs` (ChatCompletionLogProbs in vllm/entrypoints/openai/protocol.py): the content's tokens,
 * and OpenAI's `refusal` tokens, those of a declined request's words (`choices[].logprobs.refusal` of
 * ChatCompletion and ChatCompletionChunk in OpenAI's OpenAPI document).
 */
type LooseLogprobs = { content?: unknown; refusal?: unknown };

type LooseChunk = {
  id?: string;
  model?: string;
  choices?: ({ delta?: LooseDelta | null; finish_reason?: string | null; logprobs?: LooseLogprobs | null } & MatchedStop)[];
  usage?: Record<string, unknown> | null;
};

export function convertOpenAiUsage(raw: Record<string, unknown>): Usage {
  const usage: Usage = { raw };
  if (typeof raw.prompt_tokens === 'number') usage.inputTokens = raw.prompt_tokens;
  if (typeof raw.completion_tokens === 'number') usage.outputTokens = raw.completion_tokens;
  if (typeof raw.total_tokens === 'number') usage.totalTokens = raw.total_tokens;
  const cached = (raw.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens;
  if (typeof cached === 'number') usage.cachedInputTokens = cached;
  const reasoning = (raw.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens;
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  return usage;
}

type ReadOptions = {
  provider: string;
  model: string;
  warnings: Warning[];
  cancellation?: Cancellation | undefined;
  state?: DecodeState;
  /** The client's stop sequences: a matched stop string the server names counts only when it is one of them. */
  stop?: readonly string[] | null | undefined;
};

/**
 * A text delta with the log probabilities of its tokens. Only a chunk with text keeps them: those of reasoning
 * (vLLM sends them on reasoning chunks too) and of native tool calls are not the message content's tokens, which
 * is all `logprobs.content` holds.
 */
function textWithLogprobs(text: string, tokens: unknown): StreamEvent {
  const logprobs = readTokenLogprobs(tokens);
  return logprobs ? { type: 'text-delta', delta: text, logprobs } : { type: 'text-delta', delta: text };
}

/** A refusal delta, with its tokens' log probabilities when the upstream sent them (`logprobs.refusal`). */
function refusalDelta(words: string, logprobs: LooseLogprobs | null | undefined): StreamEvent {
  const tokens = logprobs ? readTokenLogprobs(logprobs.refusal) : undefined;
  return tokens ? { type: 'refusal-delta', delta: words, logprobs: tokens } : { type: 'refusal-delta', delta: words };
}

/** The reader's state across batches: chunks in, events out (an array per batch, no generator per chunk). */
class ChunkReader {
  readonly tracker = new OpenAiToolCallTracker();
  started = false;
  finishReason: FinishReason | undefined;
  /** The stop string the server says ended the reply. */
  matchedStop: string | undefined;
  /** The model declined: the words of its refusal came (`delta.refusal`), as refusal-delta events. */
  refused = false;
  usage: Usage = {};

  constructor(private readonly options: ReadOptions) {}

  read(batch: readonly unknown[], events: StreamEvent[]): void {
    for (const value of batch) {
      const chunk = value as LooseChunk;
      // Azure OpenAI opens a stream with the prompt's content-filter annotations alone (empty `id`, `model`
      // and `choices`): nothing to start a reply with, or to take its id and model from.
      // https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
      if (!this.started && chunk.choices?.length === 0 && !chunk.usage) continue;
      if (!this.started) {
        this.started = true;
        events.push({
          type: 'response-start',
          id: chunk.id ?? '',
          model: chunk.model ?? this.options.model,
          warnings: this.options.warnings,
        });
      }
      if (chunk.usage) this.usage = convertOpenAiUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning !== '') events.push({ type: 'reasoning-delta', delta: reasoning });
        const logprobs = choice.logprobs;
        if (typeof delta.content === 'string' && delta.content !== '')
          events.push(logprobs ? textWithLogprobs(delta.content, logprobs.content) : { type: 'text-delta', delta: delta.content });
        // A declined request's words are no content: each route streams them as its wire does (Chat
        // `delta.refusal`, a Responses `refusal` part, Messages text), and the finish says the reply was one.
        if (typeof delta.refusal === 'string' && delta.refusal !== '') {
          this.refused = true;
          events.push(refusalDelta(delta.refusal, logprobs));
        }
        if (delta.tool_calls) for (const fragment of delta.tool_calls) events.push(...this.tracker.push(fragment));
      }
      if (choice.finish_reason) this.finishReason = mapOpenAiFinishReason(choice.finish_reason);
      const matched = choice.stop_reason ?? choice.matched_stop;
      if (typeof matched === 'string') this.matchedStop = matched;
    }
  }

  /**
   * The finish reason, naming the client's stop sequence the server matched (what Messages reports as
   * `stop_sequence`). A stop string the client did not ask for (a server's own, a model's generation
   * config) is not one of its stop sequences.
   */
  private reason(): FinishReason {
    const reason = this.finishReason ?? { unified: this.tracker.count ? 'tool-calls' : 'stop' };
    if (this.refused) return { ...reason, refusal: '', refusalIsReply: true };
    const matched = this.matchedStop;
    if (reason.unified !== 'stop' || matched === undefined || !this.options.stop?.includes(matched)) return reason;
    return { ...reason, stopSequence: matched };
  }

  /** The events after the last batch: what an abort, a cut-off body or a complete one ends with. */
  end(): StreamEvent[] {
    const { options } = this;
    // An aborted request (client gone, or shutdown after the grace period) must not pass for a complete reply.
    if (options.cancellation?.aborted) return [{ type: 'error', error: errorFromAbort(options.cancellation.reason) }];
    const events: StreamEvent[] = [];
    if (!this.started) events.push({ type: 'response-start', id: '', model: options.model, warnings: options.warnings });
    // A body that ends with neither finish_reason nor [DONE] was cut off, not finished.
    if (options.state && !options.state.sawDone && !this.finishReason) {
      const message = `Upstream provider '${options.provider}' ended the stream before finishing.`;
      events.push({ type: 'error', error: gatewayError('upstream_unavailable', { message }) });
      return events;
    }
    events.push(...this.tracker.finish());
    // Some servers end without finish_reason; an ended stream with calls still means tool calls.
    events.push({ type: 'finish', reason: this.reason(), usage: this.usage });
    return events;
  }
}

/** The events of a live stream, batch by batch. */
async function* readBatches(
  batches: AsyncIterable<readonly unknown[]>,
  reader: ChunkReader,
  options: ReadOptions,
): AsyncGenerator<StreamEvent> {
  const events: StreamEvent[] = [];
  try {
    for await (const batch of batches) {
      reader.read(batch, events);
      for (const event of events) yield event;
      events.length = 0;
    }
  } catch (error) {
    for (const event of events) yield event;
    yield { type: 'error', error: errorFromTransportFailure(error, options.provider) };
    return;
  }
  for (const event of reader.end()) yield event;
}

/**
 * `batches`: the chunks of each upstream read together (see decodeChatCompletionChunks), or one whole
 * reply's, already in hand: those are read at once into events in hand (replayEvents).
 */
export function readOpenAiStream(
  batches: AsyncIterable<readonly unknown[]> | readonly (readonly unknown[])[],
  options: ReadOptions,
): AsyncIterable<StreamEvent> {
  const reader = new ChunkReader(options);
  if (!Array.isArray(batches)) return readBatches(batches as AsyncIterable<readonly unknown[]>, reader, options);
  const events: StreamEvent[] = [];
  try {
    for (const batch of batches as readonly (readonly unknown[])[]) reader.read(batch, events);
  } catch (error) {
    events.push({ type: 'error', error: errorFromTransportFailure(error, options.provider) });
    return replayEvents(events);
  }
  events.push(...reader.end());
  return replayEvents(events);
}

/** OpenAI `finish_reason` → unified finish reason (raw kept). @see https://platform.openai.com/docs/api-reference/chat/object */
function mapOpenAiFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case null:
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}
