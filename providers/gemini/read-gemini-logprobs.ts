/**
 * A candidate's `logprobsResult` → neutral token log probabilities. Gemini lists, step by step, the chosen
 * token (`chosenCandidates[]`: token, tokenId, logProbability) and the most likely ones
 * (`topCandidates[].candidates[]`, sorted; the chosen one may or may not be among them).
 * https://ai.google.dev/api/generate-content#LogprobsResult
 */
import type { TokenLogprob, TopLogprob } from '../../src/core/index.js';
import { asRecord, readNumber, readString, type JsonRecord } from '../../src/http/read-loose-json.js';

/**
 * Gemini sends no bytes: they are the token's UTF-8. Its JSON leaves out members at their default (proto3),
 * so a missing logProbability is 0 (certain) and a missing token is the empty string.
 */
function readCandidate(candidate: JsonRecord | undefined): TopLogprob {
  const token = readString(candidate, 'token') ?? '';
  return { token, logprob: readNumber(candidate, 'logProbability') ?? 0, bytes: [...Buffer.from(token, 'utf8')] };
}

/** The chosen tokens with their top candidates; undefined when the result holds none. */
export function readGeminiLogprobs(result: unknown): TokenLogprob[] | undefined {
  const record = asRecord(result);
  const chosen = record?.chosenCandidates;
  if (!Array.isArray(chosen) || chosen.length === 0) return undefined;
  const top = Array.isArray(record?.topCandidates) ? record.topCandidates : [];
  return chosen.map((candidate, step) => {
    const alternatives = asRecord(top[step])?.candidates;
    return {
      ...readCandidate(asRecord(candidate)),
      topLogprobs: Array.isArray(alternatives) ? alternatives.map((alternative) => readCandidate(asRecord(alternative))) : [],
    };
  });
}

function sameStep(left: TokenLogprob, right: TokenLogprob): boolean {
  return left.token === right.token && left.logprob === right.logprob;
}

/**
 * The steps of a streamed chunk's result that no earlier chunk reported. Google's reference does not say
 * whether a streamed chunk's `logprobsResult` holds that chunk's decoding steps or every step so far
 * (https://ai.google.dev/api/generate-content#LogprobsResult: "Length = total number of decoding steps";
 * streamGenerateContent returns "a stream of GenerateContentResponse"), and no Google SDK or sample shows a
 * streamed one. Both are read right: a result that repeats the previous chunk's steps at its start (same
 * tokens, same log probabilities) is cumulative, and only the steps after them are this chunk's.
 */
export function stepsAfter(previous: readonly TokenLogprob[] | undefined, steps: TokenLogprob[]): TokenLogprob[] {
  if (!previous?.length || steps.length <= previous.length) return steps;
  for (let index = 0; index < previous.length; index++)
    if (!sameStep(previous[index] as TokenLogprob, steps[index] as TokenLogprob)) return steps;
  return steps.slice(previous.length);
}
