/**
 * Log probabilities from Gemini (generationConfig.responseLogprobs and logprobs; each candidate's
 * logprobsResult, https://ai.google.dev/api/generate-content#LogprobsResult) through Chat Completions, read
 * by the real `openai` client: asked for under Gemini's names, returned in OpenAI's shape, whole and
 * streamed, with the token's UTF-8 as its bytes.
 */
import { describe, expect, it } from 'vitest';
import { fakeTokenLogprob } from '../../helpers/fake-openai-upstream.js';
import { startFakeGeminiUpstream } from '../../helpers/fake-gemini-upstream.js';
import { gatewayOverUpstream } from '../../helpers/gateway-over-upstream.js';
import { testProvider } from '../../helpers/start-gateway.js';
import { streamedTextLogprobs, wholeReplyLogprobs } from '../../helpers/logprobs-replies.js';

const setup = gatewayOverUpstream(startFakeGeminiUpstream, (url) => ({
  google: testProvider('gemini', url, { apiKey: 'gemini-test-key' }),
}));

/** The fake's steps (one text part, one token), numbered from `first`, in the wire shape the client reads. */
function tokensOf(pieces: string[], top: number, first = 0): unknown[] {
  return pieces.map((piece, position) => fakeTokenLogprob(piece, first + position, top));
}

function lastConfig(): Record<string, unknown> | undefined {
  return (setup.upstream.generateRequests().at(-1)?.body as { generationConfig?: Record<string, unknown> }).generationConfig;
}

const pieces = ['Grüß', ' dich', '!'];

describe('gemini log probabilities', () => {
  it('are asked for as responseLogprobs and logprobs, and a whole reply returns every token', async () => {
    setup.upstream.enqueue({ type: 'generate', chunks: pieces.map((text) => [{ text }]) });
    const completion = await setup.client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(lastConfig()).toMatchObject({ responseLogprobs: true, logprobs: 2 });
    expect(wholeReplyLogprobs(completion)).toEqual({
      content: 'Grüß dich!',
      logprobs: { content: tokensOf(pieces, 2), refusal: null },
      schemaErrors: [],
      diagnostics: undefined,
    });
  });

  it('stream each chunk with the tokens of its text, after a thought that has none', async () => {
    setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: 'Thinking.', thought: true }], ...pieces.map((text) => [{ text }])] });
    const stream = await setup.client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      stream: true,
    });
    const { withText, diagnostics } = await streamedTextLogprobs(stream);
    expect(lastConfig()).toMatchObject({ responseLogprobs: true });
    expect(lastConfig()).not.toHaveProperty('logprobs');
    expect(withText).toEqual(pieces.map((piece, position) => ({ content: piece, logprobs: tokensOf([piece], 0, position) })));
    expect(diagnostics).toBeUndefined();
  });

  it('are not asked for when the client did not ask', async () => {
    setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: 'ok' }]] });
    const completion = await setup.client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(lastConfig() ?? {}).not.toHaveProperty('responseLogprobs');
    expect(completion.choices[0]?.logprobs).toBeNull();
  });
});
