/**
 * Responses fields that ask OpenAI's servers for something this gateway does not keep: stored
 * conversations (`conversation`), dashboard prompts (`prompt`) and background runs (`background`).
 * Answering as if they were absent would lose the conversation or the prompt without a word, so the
 * first two are a 400 naming the field and the third a warning (the reply is still a whole response).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { nativeModel, useResponsesHarness } from './responses-test-kit.js';

const responses = useResponsesHarness();

async function apiError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('fields this gateway cannot honour', () => {
  it.each([
    ['conversation as an id', { conversation: 'conv_123' }, 'conversation'],
    ['conversation as an object', { conversation: { id: 'conv_123' } }, 'conversation'],
    ['a reusable prompt', { prompt: { id: 'pmpt_123', variables: { city: 'Paris' } } }, 'prompt'],
  ])('%s is a 400 naming the field, and nothing reaches the upstream', async (_name, fields, param) => {
    const before = responses.harness.upstream.chatRequests().length;
    const error = await apiError(responses.client.responses.create({ model: nativeModel, input: 'Hello', ...fields } as never));
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', param, code: 'unsupported_value' });
    expect(error.message).toContain(param);
    expect(responses.harness.upstream.chatRequests()).toHaveLength(before);
  });

  it('conversation: null and prompt: null are the same as leaving them out', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Hi.' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Hello', conversation: null, prompt: null });
    expect(response.output_text).toBe('Hi.');
  });
});

describe('background: true', () => {
  it('runs in the foreground, says so in diagnostics, and the stored response can be fetched', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Hello', background: true });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Done.');
    const diagnostics = (response as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics;
    expect(diagnostics?.warnings).toEqual([{ code: 'unsupported-parameter', message: expect.stringContaining('background') as string }]);
    expect((await responses.client.responses.retrieve(response.id)).output_text).toBe('Done.');
  });

  it('background: false says nothing', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Hello', background: false });
    expect((response as unknown as Record<string, unknown>).diagnostics).toBeUndefined();
  });
});

describe('include and top_logprobs', () => {
  type Diagnosed = { diagnostics?: { warnings?: { code: string; message: string }[] } };
  const warningsOf = (response: unknown) => (response as Diagnosed).diagnostics?.warnings ?? [];

  it('say in diagnostics that hosted tool results and unknown values have nothing to include; log probabilities are asked for (logprobs.test.ts)', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: 'Hello',
      include: [
        'message.output_text.logprobs',
        'file_search_call.results',
        'web_search_call.action.sources',
        'reasoning.encrypted_content',
      ],
      top_logprobs: 5,
    });
    expect(response.output_text).toBe('Done.');
    expect(responses.harness.upstream.lastChatBody()).toMatchObject({ logprobs: true, top_logprobs: 5 });
    expect(warningsOf(response)).toEqual([
      {
        code: 'unsupported-parameter',
        message: expect.stringContaining("'file_search_call.results', 'web_search_call.action.sources': hosted tools") as string,
      },
    ]);
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const unknown = await responses.client.responses.create({
      model: nativeModel,
      input: 'Hello',
      include: ['message.everything'] as never,
    });
    expect(warningsOf(unknown)).toEqual([
      { code: 'unsupported-parameter', message: expect.stringContaining("'message.everything'") as string },
    ]);
  });

  it('top_logprobs alone asks for log probabilities too; what the gateway honours (encrypted reasoning, input image URLs) says nothing', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const asked = await responses.client.responses.create({ model: nativeModel, input: 'Hello', top_logprobs: 3 });
    expect(responses.harness.upstream.lastChatBody()).toMatchObject({ logprobs: true, top_logprobs: 3 });
    expect(warningsOf(asked)).toEqual([]);
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const honoured = await responses.client.responses.create({
      model: nativeModel,
      input: 'Hello',
      include: ['reasoning.encrypted_content', 'message.input_image.image_url'],
      top_logprobs: 0,
    });
    expect(responses.harness.upstream.lastChatBody()).not.toHaveProperty('logprobs');
    expect((honoured as Diagnosed).diagnostics).toBeUndefined();
  });
});
