/**
 * Log probabilities on the Responses API: `include: ["message.output_text.logprobs"]` (with `top_logprobs`)
 * asks the upstream for them, and they come back in `output_text.logprobs`, whole and streamed (each
 * `response.output_text.delta` carries its own tokens, `.done` and the finished item all of them), in the
 * shapes of OpenAI's OpenAPI document (LogProb, ResponseTextDeltaEvent).
 */
import { describe, expect, it } from 'vitest';
import { fakeTokenLogprob } from '../../helpers/fake-openai-upstream.js';
import { expectValidResponseObject, expectWellFormedStream, nativeModel, postRawSse, useResponsesHarness } from './responses-test-kit.js';

const responses = useResponsesHarness();
const pieces = ['Bon', 'jou', 'r.'];

function tokensOf(top: number): unknown[] {
  return pieces.map((piece, position) => fakeTokenLogprob(piece, position, top));
}

describe('include message.output_text.logprobs', () => {
  it('returns the tokens in output_text.logprobs of a whole response, read by the openai client', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: pieces });
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: 'Hello in French?',
      include: ['message.output_text.logprobs'],
      top_logprobs: 2,
    });
    expect(responses.harness.upstream.lastChatBody()).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(response.output_text).toBe('Bonjour.');
    expect(response.output[0]).toMatchObject({ type: 'message', content: [{ type: 'output_text', logprobs: tokensOf(2) }] });
    expectValidResponseObject(response);
    expect((response as unknown as Record<string, unknown>).diagnostics).toBeUndefined();
  });

  it('streams each text delta with its tokens, and all of them when the text is done', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: pieces });
    const result = await postRawSse(responses.harness.gateway.baseUrl, {
      model: nativeModel,
      input: 'Hello in French?',
      include: ['message.output_text.logprobs'],
    });
    expectWellFormedStream(result);
    const deltas = result.events.filter(({ data }) => data.type === 'response.output_text.delta').map(({ data }) => data);
    expect(deltas.map(({ delta, logprobs }) => ({ delta, logprobs }))).toEqual(
      pieces.map((piece, position) => ({ delta: piece, logprobs: [fakeTokenLogprob(piece, position, 0)] })),
    );
    const done = result.events.find(({ data }) => data.type === 'response.output_text.done')?.data;
    expect(done?.logprobs).toEqual(tokensOf(0));
    const completed = result.events.at(-1)?.data.response as { output: { content: { logprobs: unknown }[] }[] };
    expect(completed.output[0]?.content[0]?.logprobs).toEqual(tokensOf(0));
  });

  it('without it, nothing is asked and output_text.logprobs stays empty', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: pieces });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Hello in French?' });
    expect(responses.harness.upstream.lastChatBody()).not.toHaveProperty('logprobs');
    expect(response.output[0]).toMatchObject({ content: [{ type: 'output_text', logprobs: [] }] });
  });
});
