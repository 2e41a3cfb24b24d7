/**
 * A request's model name is bounded on every inbound API (routes/shared/model-name-schema.ts): the names a
 * client sends are remembered by memos of about a thousand names each, which names megabytes long would fill.
 */
import { describe, expect, it } from 'vitest';
import { modelNameMaximumLength } from '../../routes/shared/model-name-schema.js';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { testProvider } from '../helpers/start-gateway.js';

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
}));

const user = { role: 'user', content: 'hi' };
const bodies: { path: string; body: (model: string) => unknown; envelope: 'openai' | 'anthropic' }[] = [
  { path: '/v1/chat/completions', body: (model) => ({ model, messages: [user] }), envelope: 'openai' },
  { path: '/v1/responses', body: (model) => ({ model, input: 'hi' }), envelope: 'openai' },
  { path: '/v1/messages', body: (model) => ({ model, max_tokens: 10, messages: [user] }), envelope: 'anthropic' },
  { path: '/v1/messages/count_tokens', body: (model) => ({ model, messages: [user] }), envelope: 'anthropic' },
  { path: '/v1/embeddings', body: (model) => ({ model, input: 'hi' }), envelope: 'openai' },
  { path: '/v1/tool-calls/parse', body: (model) => ({ model, text: 'hi' }), envelope: 'openai' },
];

describe.each(bodies)('$path', ({ path, body, envelope }) => {
  it('refuses a model name longer than the bound with a 400 naming the field, nothing sent upstream', async () => {
    const before = upstream.chatRequests().length;
    const reply = await postJson(`${gateway.baseUrl}${path}`, body(`local/${'m'.repeat(modelNameMaximumLength)}`));
    expect(reply.status, reply.text).toBe(400);
    const parsed = JSON.parse(reply.text) as { type?: string; error: { type: string; message: string; param?: string } };
    if (envelope === 'openai') expect(parsed.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
    else expect(parsed).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(parsed.error.message).toContain('model');
    expect(parsed.error.message).toContain(String(modelNameMaximumLength));
    expect(upstream.chatRequests().length).toBe(before);
  });

  it('takes a name at the bound as any other (here an unknown model of a known provider, or the inspector reading it)', async () => {
    const reply = await postJson(`${gateway.baseUrl}${path}`, body(`local/${'m'.repeat(modelNameMaximumLength - 'local/'.length)}`));
    expect(reply.status).not.toBe(400);
  });
});
