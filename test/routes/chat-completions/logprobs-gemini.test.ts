/**
 * Log probabilities from Gemini (generationConfig.responseLogprobs and logprobs; each candidate's
 * logprobsResult, https://ai.google.dev/api/generate-content#LogprobsResult) through Chat Completions, read
 * by the real `openai` client: asked for under Gemini's names, returned in OpenAI's shape, whole and
 * streamed, with the token's UTF-8 as its bytes.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTokenLogprob } from '../../helpers/fake-openai-upstream.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from '../../helpers/fake-gemini-upstream.js';
import { openAiSchemaErrors } from '../../helpers/openai-schema-validator.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let upstream: FakeGeminiUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeGeminiUpstream();
  gateway = await startGateway({ providers: { google: testProvider('gemini', upstream.url, { apiKey: 'gemini-test-key' }) } });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

type Diagnosed = { diagnostics?: { warnings?: { code: string; message: string }[] } };

/** The fake's steps (one text part, one token), numbered from `first`, in the wire shape the client reads. */
function tokensOf(pieces: string[], top: number, first = 0): unknown[] {
  return pieces.map((piece, position) => fakeTokenLogprob(piece, first + position, top));
}

function lastConfig(): Record<string, unknown> | undefined {
  return (upstream.generateRequests().at(-1)?.body as { generationConfig?: Record<string, unknown> }).generationConfig;
}

const pieces = ['Grüß', ' dich', '!'];

describe('gemini log probabilities', () => {
  it('are asked for as responseLogprobs and logprobs, and a whole reply returns every token', async () => {
    upstream.enqueue({ type: 'generate', chunks: pieces.map((text) => [{ text }]) });
    const completion = await client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(lastConfig()).toMatchObject({ responseLogprobs: true, logprobs: 2 });
    expect(completion.choices[0]?.message.content).toBe('Grüß dich!');
    expect(completion.choices[0]?.logprobs).toEqual({ content: tokensOf(pieces, 2), refusal: null });
    expect(openAiSchemaErrors('CreateChatCompletionResponse', completion)).toEqual([]);
    expect((completion as Diagnosed).diagnostics).toBeUndefined();
  });

  it('stream each chunk with the tokens of its text, after a thought that has none', async () => {
    upstream.enqueue({ type: 'generate', chunks: [[{ text: 'Thinking.', thought: true }], ...pieces.map((text) => [{ text }])] });
    const stream = await client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      stream: true,
    });
    const withText: { content: string | null | undefined; logprobs: unknown }[] = [];
    let diagnostics: Diagnosed['diagnostics'];
    for await (const chunk of stream) {
      expect(openAiSchemaErrors('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
      const choice = chunk.choices[0];
      if (choice?.delta.content) withText.push({ content: choice.delta.content, logprobs: choice.logprobs?.content });
      diagnostics ??= (chunk as Diagnosed).diagnostics;
    }
    expect(lastConfig()).toMatchObject({ responseLogprobs: true });
    expect(lastConfig()).not.toHaveProperty('logprobs');
    expect(withText).toEqual(pieces.map((piece, position) => ({ content: piece, logprobs: tokensOf([piece], 0, position) })));
    expect(diagnostics).toBeUndefined();
  });

  it('are not asked for when the client did not ask', async () => {
    upstream.enqueue({ type: 'generate', chunks: [[{ text: 'ok' }]] });
    const completion = await client.chat.completions.create({
      model: 'google/gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(lastConfig() ?? {}).not.toHaveProperty('responseLogprobs');
    expect(completion.choices[0]?.logprobs).toBeNull();
  });
});
