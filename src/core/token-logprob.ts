/**
 * Log probabilities of the reply's tokens, as OpenAI's Chat Completions (`ChatCompletionTokenLogprob`) and
 * Responses (`LogProb`) return them, and vLLM, SGLang, llama-server and Ollama in the same shape.
 */

/**
 * The warning code for a reply whose content text went out, in part or whole, without its tokens: the
 * upstream's tokens could not be paired with the text the gateway returned (a parser rewrote it, or the
 * server's own parser did), or the upstream returned none though they were asked for
 * (providers/logprobs-not-returned.ts).
 */
export const logprobsPartialCode = 'logprobs-partial';

/** One candidate at a token position. `bytes` is null when the upstream gave no byte representation. */
export type TopLogprob = { token: string; logprob: number; bytes: number[] | null };

/** One token of the reply, with the most likely candidates at its position (as many as the upstream sent). */
export type TokenLogprob = TopLogprob & { topLogprobs: TopLogprob[] };

/**
 * `tokens` with `more` appended (a new list when there was none). A loop, not push(...more): a whole reply's
 * one delta may carry more tokens than a call takes arguments.
 */
export function appendTokens(tokens: TokenLogprob[] | undefined, more: readonly TokenLogprob[]): TokenLogprob[] {
  const list = tokens ?? [];
  for (const token of more) list.push(token);
  return list;
}
