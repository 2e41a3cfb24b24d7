/**
 * How the Gemini reader pairs a candidate's logprobsResult (https://ai.google.dev/api/generate-content#LogprobsResult)
 * with its text when the same chunk holds thoughts or calls too, whose tokens (if Gemini lists them) are not content.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import { GeminiReplyReader } from '../../../providers/gemini/gemini-reply-reader.js';

const step = (token: string, logProbability?: number) => (logProbability === undefined ? { token } : { token, logProbability });
const neutral = (token: string, logprob: number) => ({ token, logprob, bytes: [...Buffer.from(token, 'utf8')], topLogprobs: [] });

function read(parts: unknown[], chosenCandidates: unknown[]): StreamEvent[] {
  const reader = new GeminiReplyReader({ provider: 'google', model: 'gemini-2.5-flash', warnings: [] });
  const candidate = { content: { role: 'model', parts }, finishReason: 'STOP', logprobsResult: { chosenCandidates } };
  return [...reader.push({ candidates: [candidate] }), ...reader.end()];
}

describe('GeminiReplyReader log probabilities', () => {
  it('gives the text the run of tokens that spells it, not the thought’s; a missing logProbability is 0', () => {
    const events = read([{ text: 'Hmm', thought: true }, { text: 'Yes.' }], [step('Hmm', -0.3), step('Yes', -0.1), step('.')]);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', delta: 'Yes.', logprobs: [neutral('Yes', -0.1), neutral('.', 0)] },
    ]);
    expect(events.at(-1)).not.toHaveProperty('diagnostics');
  });

  it('returns no tokens for text that beside a call no run spells, and says so', () => {
    const events = read([{ text: 'Sure' }, { functionCall: { name: 'ping', args: {} } }], [step('Sure!', -0.2)]);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([{ type: 'text-delta', delta: 'Sure' }]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', diagnostics: { warnings: [{ code: 'logprobs-partial' }] } });
  });
});
