/**
 * Neutral token log probabilities → OpenAI's wire: Chat Completions' `ChatCompletionTokenLogprob` (bytes may
 * be null) and Responses' `LogProb` (bytes is a required list), both in OpenAI's OpenAPI document.
 */
import type { TokenLogprob, TopLogprob } from '../../src/core/token-logprob.js';

type WireCandidate = { token: string; logprob: number; bytes: number[] | null };
type WireTokenLogprob = WireCandidate & { top_logprobs: WireCandidate[] };

function chatCandidate(candidate: TopLogprob): WireCandidate {
  return { token: candidate.token, logprob: candidate.logprob, bytes: candidate.bytes };
}

/** A choice's `logprobs.content` list. */
function toChatLogprobs(tokens: readonly TokenLogprob[]): WireTokenLogprob[] {
  return tokens.map((token) => ({ ...chatCandidate(token), top_logprobs: token.topLogprobs.map(chatCandidate) }));
}

type WireChoiceLogprobs = { content: WireTokenLogprob[] | null; refusal: WireTokenLogprob[] | null };

/**
 * A choice's whole `logprobs` member, or a chunk's: the content's tokens and a refusal's (OpenAI's
 * `logprobs.refusal`), each null when there are none; null when neither has any.
 */
export function toChatChoiceLogprobs(
  content: readonly TokenLogprob[] | undefined,
  refusal?: readonly TokenLogprob[],
): WireChoiceLogprobs | null {
  if (!content && !refusal) return null;
  return { content: content ? toChatLogprobs(content) : null, refusal: refusal ? toChatLogprobs(refusal) : null };
}

/** Responses require bytes: where the upstream gave none, they are the token's own UTF-8 text. */
function responsesCandidate(candidate: TopLogprob): { token: string; logprob: number; bytes: number[] } {
  return { token: candidate.token, logprob: candidate.logprob, bytes: candidate.bytes ?? [...Buffer.from(candidate.token, 'utf8')] };
}

/** `output_text.logprobs` and the `logprobs` of `response.output_text.delta` / `.done`. */
export function toResponsesLogprobs(tokens: readonly TokenLogprob[]): Record<string, unknown>[] {
  return tokens.map((token) => ({ ...responsesCandidate(token), top_logprobs: token.topLogprobs.map(responsesCandidate) }));
}
