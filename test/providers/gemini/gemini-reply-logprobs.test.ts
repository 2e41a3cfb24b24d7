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

  /** A streamed reply, chunk by chunk: each chunk's text parts and the `chosenCandidates` it carries. */
  function readStream(chunks: { text: string; steps: unknown[] }[]): StreamEvent[] {
    const reader = new GeminiReplyReader({ provider: 'google', model: 'gemini-2.5-flash', warnings: [] });
    const events = chunks.flatMap(({ text, steps }, index) => {
      const candidate = { content: { role: 'model', parts: [{ text }] }, logprobsResult: { chosenCandidates: steps } };
      return reader.push({ candidates: [index === chunks.length - 1 ? { ...candidate, finishReason: 'STOP' } : candidate] });
    });
    return [...events, ...reader.end()];
  }

  const texts = (events: StreamEvent[]) => events.filter((event) => event.type === 'text-delta');
  const expected = [
    { type: 'text-delta', delta: 'Hello', logprobs: [neutral('Hel', -0.1), neutral('lo', -0.2)] },
    { type: 'text-delta', delta: ' world', logprobs: [neutral(' world', -0.3)] },
  ];

  it("streamed, each chunk's own steps go with its text", () => {
    const events = readStream([
      { text: 'Hello', steps: [step('Hel', -0.1), step('lo', -0.2)] },
      { text: ' world', steps: [step(' world', -0.3)] },
    ]);
    expect(texts(events)).toEqual(expected);
  });

  // Google's reference does not say which of the two a streamed chunk carries: both are read alike.
  it('streamed with every step so far in each chunk, only the new steps go with its text', () => {
    const events = readStream([
      { text: 'Hello', steps: [step('Hel', -0.1), step('lo', -0.2)] },
      { text: ' world', steps: [step('Hel', -0.1), step('lo', -0.2), step(' world', -0.3)] },
    ]);
    expect(texts(events)).toEqual(expected);
    expect(events.at(-1)).not.toHaveProperty('diagnostics');
  });
});
