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

/** A choice's whole `logprobs` member (the refusal has none of its own: a refusal is the reply's text here). */
export function toChatChoiceLogprobs(tokens: readonly TokenLogprob[] | undefined): { content: WireTokenLogprob[]; refusal: null } | null {
  return tokens ? { content: toChatLogprobs(tokens), refusal: null } : null;
}

/** Responses require bytes: where the upstream gave none, they are the token's own UTF-8 text. */
function responsesCandidate(candidate: TopLogprob): { token: string; logprob: number; bytes: number[] } {
  return { token: candidate.token, logprob: candidate.logprob, bytes: candidate.bytes ?? [...Buffer.from(candidate.token, 'utf8')] };
}

/** `output_text.logprobs` and the `logprobs` of `response.output_text.delta` / `.done`. */
export function toResponsesLogprobs(tokens: readonly TokenLogprob[]): Record<string, unknown>[] {
  return tokens.map((token) => ({ ...responsesCandidate(token), top_logprobs: token.topLogprobs.map(responsesCandidate) }));
}
