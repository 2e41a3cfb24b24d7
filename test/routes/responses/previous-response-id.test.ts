/** `previous_response_id`: the gateway's in-memory store continues conversations within one process. */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { nativeModel, postRawSse, useResponsesHarness } from './responses-test-kit.js';

const responses = useResponsesHarness();

const tools: OpenAI.Responses.Tool[] = [
  { type: 'function', name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false },
  { type: 'custom', name: 'apply_patch', description: 'Edit files.' },
];

describe('previous_response_id', () => {
  it('replays the earlier input and output, so only the new tool results need sending', async () => {
    responses.harness.upstream.enqueue({
      type: 'chat',
      content: 'Let me look.',
      toolCalls: [
        { id: 'call_read', name: 'read_file', arguments: { path: 'a.txt' } },
        { id: 'call_patch', name: 'apply_patch', arguments: { input: '*** Begin Patch\n*** End Patch\n' } },
      ],
    });
    const first = await responses.client.responses.create({
      model: nativeModel,
      instructions: 'First instructions.',
      input: 'Fix a.txt',
      tools,
    });
    expect(first.output.map((item) => item.type)).toEqual(['message', 'function_call', 'custom_tool_call']);

    responses.harness.upstream.enqueue({ type: 'chat', content: 'Fixed.' });
    const second = await responses.client.responses.create({
      model: nativeModel,
      previous_response_id: first.id,
      instructions: 'Second instructions.',
      input: [
        { type: 'function_call_output', call_id: 'call_read', output: 'contents of a' },
        { type: 'custom_tool_call_output', call_id: 'call_patch', output: 'Done!' },
      ],
      tools,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toBe('Fixed.');
    expect(responses.harness.upstream.lastChatBody().messages).toEqual([
      // Instructions are not inherited through previous_response_id: only this request's count.
      { role: 'system', content: 'Second instructions.' },
      { role: 'user', content: 'Fix a.txt' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_read', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          {
            id: 'call_patch',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch\n' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_read', content: 'contents of a' },
      { role: 'tool', tool_call_id: 'call_patch', content: 'Done!' },
    ]);
  });

  it('chains streamed turns, dropping reasoning items from the replay', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', reasoning: 'Think first.', content: 'One.' });
    const first = await responses.client.responses.stream({ model: nativeModel, input: 'Count with me' }).finalResponse();
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Two.' });
    const second = await responses.client.responses
      .stream({ model: nativeModel, previous_response_id: first.id, input: 'Next' })
      .finalResponse();
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Three.' });
    await responses.client.responses.create({ model: nativeModel, previous_response_id: second.id, input: 'And again' });
    expect(responses.harness.upstream.lastChatBody().messages).toEqual([
      { role: 'user', content: 'Count with me' },
      { role: 'assistant', content: 'One.' },
      { role: 'user', content: 'Next' },
      { role: 'assistant', content: 'Two.' },
      { role: 'user', content: 'And again' },
    ]);
  });

  it('answers 404 previous_response_not_found for an unknown id, before calling the upstream', async () => {
    const before = responses.harness.upstream.chatRequests().length;
    const response = await fetch(`${responses.harness.gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: nativeModel, previous_response_id: 'resp_unknown', input: 'hi' }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
    expect(responses.harness.upstream.chatRequests()).toHaveLength(before);
  });

  it('does not keep responses created with store: false', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Not kept.' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'hi', store: false });
    expect((response as unknown as { store: boolean }).store).toBe(false);
    const error = await responses.client.responses
      .create({ model: nativeModel, previous_response_id: response.id, input: 'again' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });

  it('does not keep failed responses', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Partial', streamError: { afterChunks: 2, message: 'boom' } });
    const result = await postRawSse(responses.harness.gateway.baseUrl, { model: nativeModel, input: 'hi' });
    const failed = result.events.at(-1)?.data as { type: string; response: { id: string } };
    expect(failed.type).toBe('response.failed');
    const response = await fetch(`${responses.harness.gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: nativeModel, previous_response_id: failed.response.id, input: 'again' }),
    });
    expect(response.status).toBe(404);
  });
});
