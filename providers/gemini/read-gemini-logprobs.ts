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
