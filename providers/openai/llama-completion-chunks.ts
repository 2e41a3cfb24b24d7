/**
 * llama-server's `/completion` replies → the chat-completion chunks readOpenAiStream reads, so that this
 * lane shares the chat lane's reader (abort, cut-off and usage handling included).
 */
// Streamed, each generated piece is `data: {"content":"…","stop":false,…}` and the last one carries
// `"stop": true` with `stop_type` (eos | word | limit | none), `tokens_predicted`, `tokens_evaluated` and
// `timings`; no `[DONE]` follows. Whole, the same last object holds the whole `content`.
// @see https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-task.cpp (to_json_non_oaicompat)
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import { errorFromInBandOverflow, readUpstreamErrorMessage } from '../../src/http/upstream-error.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import type { DecodeState } from './decode-chat-completion-chunks.js';

type LooseCompletion = {
  content?: unknown;
  stop?: unknown;
  stop_type?: unknown;
  /** The stop string matched, when `stop_type` is `word`. */
  stopping_word?: unknown;
  model?: unknown;
  tokens_predicted?: unknown;
  tokens_evaluated?: unknown;
  tokens_cached?: unknown;
  timings?: { cache_n?: unknown } | null;
  error?: unknown;
  /**
   * With `n_probs`: the tokens of this piece (of the whole reply, whole), as probs_vector_to_json writes them
   * (server-task.cpp): id, token, bytes, logprob, top_logprobs (n_probs of them).
   */
  completion_probabilities?: unknown;
};

/** `stop_type` → an OpenAI finish_reason (an unknown one is kept as it is, and reads as `other`). */
function finishReasonOf(stopType: unknown): string | null {
  if (stopType === 'eos' || stopType === 'word') return 'stop';
  if (stopType === 'limit') return 'length';
  return typeof stopType === 'string' ? stopType : null;
}

/** OpenAI's usage names beside llama-server's own counters, which stay in it as the raw usage. */
function usageOf(reply: LooseCompletion): Record<string, unknown> {
  const usage: Record<string, unknown> = {
    tokens_evaluated: reply.tokens_evaluated,
    tokens_predicted: reply.tokens_predicted,
    tokens_cached: reply.tokens_cached,
    timings: reply.timings,
  };
  if (typeof reply.tokens_evaluated === 'number') usage.prompt_tokens = reply.tokens_evaluated;
  if (typeof reply.tokens_predicted === 'number') usage.completion_tokens = reply.tokens_predicted;
  if (typeof reply.tokens_evaluated === 'number' && typeof reply.tokens_predicted === 'number')
    usage.total_tokens = reply.tokens_evaluated + reply.tokens_predicted;
  if (typeof reply.timings?.cache_n === 'number') usage.prompt_tokens_details = { cached_tokens: reply.timings.cache_n };
  return usage;
}

/**
 * The piece's tokens as a chat choice's `logprobs`, each with the `top` candidates the client asked for:
 * n_probs was at least 1, since 0 would have returned none.
 */
function logprobsOf(probabilities: unknown, top: number): { content: unknown[] } | undefined {
  if (!Array.isArray(probabilities)) return undefined;
  return {
    content: probabilities.map((entry: unknown) => {
      const candidates = (entry as { top_logprobs?: unknown } | null)?.top_logprobs;
      return Array.isArray(candidates) && candidates.length > top
        ? { ...(entry as object), top_logprobs: candidates.slice(0, top) }
        : entry;
    }),
  };
}

/** `topLogprobs`: what the client asked for, or undefined when it asked for no log probabilities. */
function asChunk(reply: LooseCompletion, topLogprobs: number | undefined): Record<string, unknown> {
  const final = reply.stop === true;
  return {
    model: typeof reply.model === 'string' && reply.model !== '' ? reply.model : undefined,
    usage: final ? usageOf(reply) : undefined,
    choices: [
      {
        delta: { content: reply.content },
        finish_reason: final ? finishReasonOf(reply.stop_type) : null,
        // As vLLM names it: the chat reader takes the stop string from there.
        stop_reason: final && reply.stop_type === 'word' ? reply.stopping_word : undefined,
        logprobs: topLogprobs === undefined ? undefined : logprobsOf(reply.completion_probabilities, topLogprobs),
      },
    ],
  };
}

function failure(provider: string, reply: LooseCompletion, whole: boolean): GatewayError {
  const overflow = errorFromInBandOverflow(reply);
  if (overflow) return overflow;
  const message = readUpstreamErrorMessage(reply) ?? 'unknown error';
  return whole
    ? gatewayError('upstream_error', { message: `Upstream provider '${provider}' failed: ${message}`, upstreamBody: reply.error })
    : gatewayError('upstream_stream_error', {
        message: `Upstream provider '${provider}' failed mid-stream: ${message}`,
        upstreamBody: reply.error,
      });
}

/** A whole reply's body → one batch of one chunk. */
export function parseLlamaCompletion(text: string, provider: string, topLogprobs?: number): Record<string, unknown>[] {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    reply = undefined;
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply))
    throw gatewayError('upstream_bad_response', {
      message: `Upstream provider '${provider}' sent a /completion reply that is not a JSON object.`,
    });
  const completion = reply as LooseCompletion;
  if (completion.error !== undefined && completion.content === undefined) throw failure(provider, completion, true);
  // A whole reply is its last object, whatever its `stop` says.
  return [asChunk({ ...completion, stop: true }, topLogprobs)];
}

/** A streamed reply → its chunks, one batch per upstream read; `state.sawDone` once the last piece came. */
export async function* decodeLlamaCompletionChunks(
  stream: UpstreamStream,
  provider: string,
  state: DecodeState,
  topLogprobs?: number,
): AsyncGenerator<Record<string, unknown>[]> {
  for await (const events of stream.serverSentEvents('flush')) {
    const batch: Record<string, unknown>[] = [];
    for (const event of events) {
      if (event.data === '' || event.data === '[DONE]') continue;
      let reply: LooseCompletion;
      try {
        reply = JSON.parse(event.data) as LooseCompletion;
      } catch {
        throw gatewayError('upstream_bad_chunk', { message: `Upstream provider '${provider}' sent a malformed stream chunk.` });
      }
      if (reply.error !== undefined && reply.content === undefined) {
        if (batch.length) yield batch;
        throw failure(provider, reply, false);
      }
      batch.push(asChunk(reply, topLogprobs));
      if (reply.stop === true) {
        state.sawDone = true;
        stream.complete();
        yield batch;
        return;
      }
    }
    if (batch.length) yield batch;
  }
}
