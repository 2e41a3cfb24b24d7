/** OpenAI Chat Completions stream chunks → neutral StreamEvents (tolerant of compatible servers). */
import type { AbortState } from '../../src/core/cancellation.js';
import type { FinishReason } from '../../src/core/finish-reason.js';
import { GatewayError, upstreamFailure } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { Usage } from '../../src/core/usage.js';
import type { Warning } from '../../src/core/warning.js';
import type { DecodeState } from './decode-chat-completion-chunks.js';
import { mapOpenAiError } from './map-openai-error.js';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.js';
import { OpenAiToolCallTracker, type ToolCallFragment } from './openai-tool-call-tracker.js';

type LooseDelta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: ToolCallFragment[] | null;
};

type LooseChunk = {
  id?: string;
  model?: string;
  choices?: { delta?: LooseDelta | null; finish_reason?: string | null }[];
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

function abortedError(provider: string, reason: unknown): GatewayError {
  const detail = reason instanceof Error ? reason.message : 'aborted';
  return new GatewayError({ status: 503, type: 'server_error', code: 'request_aborted', message: `The request to provider '${provider}' was aborted (${detail}).` });
}

/** `batches`: the chunks of each upstream read together (see decodeChatCompletionChunks), or one whole reply's. */
export async function* readOpenAiStream(
  batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  options: { provider: string; model: string; warnings: Warning[]; signal?: AbortState; state?: DecodeState },
): AsyncGenerator<StreamEvent> {
  const tracker = new OpenAiToolCallTracker();
  let started = false;
  let finishReason: FinishReason | undefined;
  let usage: Usage = {};
  try {
    for await (const batch of batches) {
      for (const value of batch) {
        const chunk = value as LooseChunk;
        if (!started) {
          started = true;
          yield { type: 'response-start', id: chunk.id ?? '', model: chunk.model ?? options.model, warnings: options.warnings };
        }
        if (chunk.usage) usage = convertOpenAiUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta) {
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (typeof reasoning === 'string' && reasoning !== '') yield { type: 'reasoning-delta', delta: reasoning };
          if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text-delta', delta: delta.content };
          for (const fragment of delta.tool_calls ?? []) yield* tracker.push(fragment);
        }
        if (choice.finish_reason) finishReason = mapOpenAiFinishReason(choice.finish_reason);
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapOpenAiError(error, options.provider) };
    return;
  }
  // An aborted request (client gone, or shutdown after the grace period) must not pass for a complete reply.
  if (options.signal?.aborted) {
    yield { type: 'error', error: abortedError(options.provider, options.signal.reason) };
    return;
  }
  if (!started) yield { type: 'response-start', id: '', model: options.model, warnings: options.warnings };
  // A body that ends with neither finish_reason nor [DONE] was cut off, not finished.
  if (options.state && !options.state.sawDone && !finishReason) {
    yield { type: 'error', error: upstreamFailure(`Upstream provider '${options.provider}' ended the stream before finishing.`) };
    return;
  }
  yield* tracker.finish();
  // Some servers end without finish_reason; an ended stream with calls still means tool calls.
  yield { type: 'finish', reason: finishReason ?? { unified: tracker.count ? 'tool-calls' : 'stop' }, usage };
}
