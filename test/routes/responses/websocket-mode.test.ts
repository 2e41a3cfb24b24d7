/** The Responses WebSocket mode, driven the way Codex drives it, with the real `ws` client. */
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../../helpers/gateway-with-openai-upstream.js';
import { ResponsesSocketClient, type SocketEvent } from '../../helpers/responses-socket-client.js';
import { testProvider } from '../../helpers/start-gateway.js';

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  server: { apiKeys: ['sk-gateway'] },
  providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
}));
const socketUrl = `${gateway.baseUrl.replace(/^http/, 'ws')}/v1/responses?api-version=test`;

const auth = { authorization: 'Bearer sk-gateway' };
const execCommand = {
  type: 'function',
  name: 'exec_command',
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  strict: false,
};
const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] };
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

function codexFrame(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'response.create',
    model: 'local/gpt-5.5',
    stream: true,
    tools: [execCommand],
    store: false,
    include: ['reasoning.encrypted_content'],
    ...extra,
  };
}

const typesOf = (events: SocketEvent[]) => events.map((event) => event.type);
const completedResponse = (events: SocketEvent[]) =>
  events.at(-1)?.response as { id: string; status: string; store: boolean; output: Record<string, unknown>[] };

describe('a Codex session over one connection', () => {
  it('warms up, then chains turns by previous_response_id with store: false, sending only the new items', async () => {
    const client = await ResponsesSocketClient.connect(socketUrl, auth);
    try {
      const before = upstream.chatRequests().length;
      client.send(codexFrame({ generate: false, input: [developer] }));
      const warmUp = await client.nextTurn();
      expect(typesOf(warmUp)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
      expect(completedResponse(warmUp)).toMatchObject({ status: 'completed', output: [], store: false });
      expect(upstream.chatRequests().length).toBe(before);

      upstream.enqueue({ type: 'chat', toolCalls: [{ id: 'call_ws_1', name: 'exec_command', arguments: { cmd: 'echo hi > probe.txt' } }] });
      client.send(codexFrame({ previous_response_id: completedResponse(warmUp).id, input: [user('Create probe.txt')] }));
      const first = await client.nextTurn();
      expect(typesOf(first)).toContain('response.function_call_arguments.done');
      expect(completedResponse(first).output).toEqual([
        expect.objectContaining({ type: 'function_call', call_id: 'call_ws_1', name: 'exec_command' }),
      ]);
      expect(first.map((event) => event.sequence_number)).toEqual(first.map((_event, index) => index));

      upstream.enqueue({ type: 'chat', content: 'Created probe.txt.' });
      client.send(
        codexFrame({
          previous_response_id: completedResponse(first).id,
          input: [{ type: 'function_call_output', call_id: 'call_ws_1', output: 'exit 0' }],
        }),
      );
      const second = await client.nextTurn();
      expect(completedResponse(second).output).toEqual([
        expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Created probe.txt.' })] }),
      ]);
      expect(upstream.lastChatBody().messages).toEqual([
        { role: 'system', content: 'You are Codex.' },
        { role: 'user', content: 'Create probe.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_ws_1', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"echo hi > probe.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_ws_1', content: 'exit 0' },
      ]);

      // store: false kept it on the connection only, not in the shared store.
      const shared = await fetch(`${gateway.baseUrl}/v1/responses/${completedResponse(second).id}`, { headers: auth });
      expect(shared.status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it('keeps a store: true response in the shared store, where another connection can continue it', async () => {
    const first = await ResponsesSocketClient.connect(socketUrl, auth);
    upstream.enqueue({ type: 'chat', content: 'Hello.' });
    first.send(codexFrame({ store: true, input: [user('Hi')] }));
    const response = completedResponse(await first.nextTurn());
    await first.close();
    expect(response.store).toBe(true);

    const second = await ResponsesSocketClient.connect(`${gateway.baseUrl.replace(/^http/, 'ws')}/local/v1/responses`, auth);
    try {
      upstream.enqueue({ type: 'chat', content: 'Again.' });
      second.send(codexFrame({ model: 'gpt-5.5', previous_response_id: response.id, input: [user('Once more')], stream_id: 'lane_1' }));
      const events = await second.nextTurn();
      expect(events.every((event) => event.stream_id === 'lane_1')).toBe(true);
      expect(completedResponse(events).status).toBe('completed');
      expect(upstream.lastChatBody().model).toBe('gpt-5.5');
      expect((upstream.lastChatBody().messages as unknown[]).length).toBe(3);
    } finally {
      await second.close();
    }
  });
});

describe('errors', () => {
  it('answers bad frames with error frames and keeps the connection usable', async () => {
    const client = await ResponsesSocketClient.connect(socketUrl, auth);
    try {
      client.send('{"type":');
      expect((await client.nextTurn()).at(-1)).toMatchObject({
        type: 'error',
        status: 400,
        error: { code: 'invalid_json', type: 'invalid_request_error' },
      });
      client.send({ type: 'response.cancel' });
      expect((await client.nextTurn()).at(-1)).toMatchObject({ type: 'error', status: 400, error: { param: 'type' } });
      client.send(codexFrame({ previous_response_id: 'resp_unknown', input: [user('x')] }));
      const missing = (await client.nextTurn()).at(-1) as unknown as { error: { code: string; message: string } };
      expect(missing).toMatchObject({ type: 'error', status: 404, error: { code: 'previous_response_not_found' } });
      expect(missing.error.message).toContain('resp_unknown');
      client.send(codexFrame({ model: 'nowhere/model', input: [user('x')] }));
      expect((await client.nextTurn()).at(-1)).toMatchObject({ type: 'error', status: 404 });

      upstream.enqueue({ type: 'chat', content: 'Still here.' });
      client.send(codexFrame({ input: [user('Are you there?')] }));
      expect(completedResponse(await client.nextTurn()).status).toBe('completed');
    } finally {
      await client.close();
    }
  });

  it('allows one response at a time per connection', async () => {
    const client = await ResponsesSocketClient.connect(socketUrl, auth);
    try {
      upstream.enqueue({ type: 'chat', content: 'slow answer', fragmentSize: 1, chunkDelayMs: 30 });
      client.send(codexFrame({ input: [user('First')] }));
      client.send(codexFrame({ input: [user('Second')] }));
      const events = await client.nextTurn();
      expect(events.at(-1)).toMatchObject({ type: 'error', status: 409, error: { code: 'response_in_progress' } });
      const rest = await client.nextTurn();
      expect(completedResponse(rest).output).toEqual([
        expect.objectContaining({ content: [expect.objectContaining({ text: 'slow answer' })] }),
      ]);
    } finally {
      await client.close();
    }
  });

  it('a mid-stream upstream failure ends the turn with response.failed', async () => {
    const client = await ResponsesSocketClient.connect(socketUrl, auth);
    try {
      upstream.enqueue({ type: 'chat', content: 'partial answer', streamError: { afterChunks: 2, message: 'upstream exploded' } });
      client.send(codexFrame({ input: [user('Go')] }));
      const events = await client.nextTurn();
      expect(events.at(-1)?.type).toBe('response.failed');
    } finally {
      await client.close();
    }
  });

  it('refuses the upgrade with 401 without a valid key', async () => {
    await expect(ResponsesSocketClient.connect(socketUrl)).rejects.toThrow('upgrade refused: 401');
    await expect(ResponsesSocketClient.connect(socketUrl, { authorization: 'Bearer wrong' })).rejects.toThrow('upgrade refused: 401');
  });
});
