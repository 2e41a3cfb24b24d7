/**
 * Log probabilities (`logprobs`, `top_logprobs`) through the gateway: asked of OpenAI-kind upstreams as the
 * client gave them, returned per chunk and whole as `choices[0].logprobs.content`, read by the real `openai`
 * client; through the prompted lane only for the content the parser passed on as written; a warning from
 * upstream kinds that have none.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { fakeTokenLogprob, startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import { streamedTextLogprobs, wholeReplyLogprobs, type Diagnosed } from '../../helpers/logprobs-replies.js';

let upstream: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  [upstream, anthropic] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream()]);
  gateway = await startGateway({
    providers: {
      oai: testProvider('openai', `${upstream.url}/v1`, { apiKey: 'sk-upstream' }),
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${upstream.url}/v1`, {
        toolCalling: 'prompted',
        models: { 'm-hermes': { family: 'hermes' } },
      }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'sk-ant-upstream' }),
    },
  });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([upstream?.close(), anthropic?.close()]);
});

/** The tokens the fake sends for these content pieces, in the wire shape the client reads. */
function tokensOf(pieces: string[], top: number, first = 0): unknown[] {
  return pieces.map((piece, position) => fakeTokenLogprob(piece, first + position, top));
}

const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('a native upstream', () => {
  it.each(['oai/gpt-fake-1', 'local/gpt-fake-1'])('%s is asked for them as given, and a whole reply returns every token', async (model) => {
    upstream.enqueue({ type: 'chat', content: ['Hel', 'lo ', 'wor', 'ld'] });
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(upstream.lastChatBody()).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(wholeReplyLogprobs(completion)).toEqual({
      content: 'Hello world',
      logprobs: { content: tokensOf(['Hel', 'lo ', 'wor', 'ld'], 2), refusal: null },
      schemaErrors: [],
      diagnostics: undefined,
    });
  });

  it('streams each chunk with the tokens of its text', async () => {
    upstream.enqueue({ type: 'chat', content: ['Hel', 'lo ', 'wor', 'ld'] });
    const stream = await client.chat.completions.create({
      model: 'local/gpt-fake-1',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 1,
      stream: true,
    });
    const { withText } = await streamedTextLogprobs(stream);
    expect(withText).toEqual(
      ['Hel', 'lo ', 'wor', 'ld'].map((piece, position) => ({ content: piece, logprobs: [fakeTokenLogprob(piece, position, 1)] })),
    );
  });

  it('logprobs: false and top_logprobs: 0 go upstream as given, and nothing comes back', async () => {
    upstream.enqueue({ type: 'chat', content: 'ok' });
    const completion = await client.chat.completions.create({
      model: 'local/gpt-fake-1',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: false,
      top_logprobs: 0,
    });
    expect(upstream.lastChatBody()).toMatchObject({ logprobs: false, top_logprobs: 0 });
    expect(completion.choices[0]?.logprobs).toBeNull();
  });

  it('a top_logprobs that is not a count is a 400 naming it', async () => {
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, {
      model: 'local/gpt-fake-1',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: -1,
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('top_logprobs') as string },
    });
  });
});

describe('the prompted lane', () => {
  const reply = ['Let me ', 'check. ', '<tool_call>', '{"name": "get_weather", ', '"arguments": {"city": "Paris"}}', '</tool_call>'];

  it('returns the tokens of the content text before the call, streamed, and says the rest are not returned', async () => {
    upstream.enqueue({ type: 'chat', content: reply });
    const stream = await client.chat.completions.create({
      model: 'prompted/m-hermes',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      logprobs: true,
      top_logprobs: 1,
      stream: true,
    });
    let content = '';
    const tokens: unknown[] = [];
    const calls: string[] = [];
    let last: unknown;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      tokens.push(...(choice?.logprobs?.content ?? []));
      for (const call of choice?.delta.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name);
      last = chunk;
    }
    expect(content).toBe('Let me check. ');
    expect(calls).toEqual(['get_weather']);
    expect(tokens).toEqual(tokensOf(['Let me ', 'check. '], 1));
    expect((last as Diagnosed).diagnostics?.warnings).toEqual([
      { code: 'logprobs-partial', message: expect.stringContaining('tool calls') as string },
    ]);
  });

  it('splits a whole reply token by token: the content keeps its own', async () => {
    upstream.enqueue({ type: 'chat', content: reply });
    const completion = await client.chat.completions.create({
      model: 'prompted/m-hermes',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      logprobs: true,
    });
    expect(completion.choices[0]?.message.content).toBe('Let me check. ');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
    expect(completion.choices[0]?.logprobs?.content).toEqual(tokensOf(['Let me ', 'check. '], 0));
    expect((completion as Diagnosed).diagnostics?.warnings?.map((warning) => warning.code)).toEqual(['logprobs-partial']);
  });

  it('a reply with no call keeps every token and says nothing', async () => {
    upstream.enqueue({ type: 'chat', content: ['It is ', '<b>sunny</b>', ' today.'] });
    const completion = await client.chat.completions.create({
      model: 'prompted/m-hermes',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      logprobs: true,
      top_logprobs: 1,
    });
    expect(completion.choices[0]?.message.content).toBe('It is <b>sunny</b> today.');
    expect(completion.choices[0]?.logprobs?.content).toEqual(tokensOf(['It is ', '<b>sunny</b>', ' today.'], 1));
    expect((completion as Diagnosed).diagnostics).toBeUndefined();
  });
});

describe('an upstream kind without log probabilities', () => {
  it('says so in a warning, and logprobs is null', async () => {
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'Hi.' }] });
    const completion = await client.chat.completions.create({
      model: 'claude/claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(completion.choices[0]?.logprobs).toBeNull();
    const warned = ((completion as Diagnosed).diagnostics?.warnings ?? []).map((warning) => warning.message).join('\n');
    expect(warned).toContain("'logprobs'");
    expect(warned).toContain("'top_logprobs'");
  });
});
