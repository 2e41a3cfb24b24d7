/**
 * Log probabilities in OpenAI's token shape (`{token, logprob, bytes, top_logprobs}`), read loosely: OpenAI's
 * `ChatCompletionTokenLogprob`, vLLM's `ChatCompletionLogProbsContent` (vllm/entrypoints/openai/protocol.py;
 * `top_logprobs` may be absent), llama-server's `probs_vector_to_json` (tools/server, with an extra `id`, and
 * a `logprob` of null where the probability was 0 in builds that wrote -inf) and Ollama's `logprobs`
 * (docs/api.md, /api/chat since 0.12.11) all read the same way. Only the members the gateway returns are kept.
 */
import type { TokenLogprob, TopLogprob } from '../src/core/token-logprob.js';

/** What OpenAI's own schema uses for "very unlikely" (ChatCompletionTokenLogprob.logprob), where a server gave no number. */
const veryUnlikely = -9999;

function isByteList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((byte) => typeof byte === 'number');
}

function readCandidate(value: unknown): TopLogprob | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { token, logprob, bytes } = value as Record<string, unknown>;
  if (typeof token !== 'string') return undefined;
  return { token, logprob: typeof logprob === 'number' ? logprob : veryUnlikely, bytes: isByteList(bytes) ? bytes : null };
}

/** The tokens of one `content` list (or Ollama's `logprobs`); undefined when there are none. */
export function readTokenLogprobs(value: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const tokens: TokenLogprob[] = [];
  for (const entry of value) {
    const candidate = readCandidate(entry);
    if (!candidate) continue;
    const top = (entry as { top_logprobs?: unknown }).top_logprobs;
    const topLogprobs: TopLogprob[] = [];
    if (Array.isArray(top))
      for (const item of top) {
        const alternative = readCandidate(item);
        if (alternative) topLogprobs.push(alternative);
      }
    tokens.push({ token: candidate.token, logprob: candidate.logprob, bytes: candidate.bytes, topLogprobs });
  }
  return tokens.length ? tokens : undefined;
}
