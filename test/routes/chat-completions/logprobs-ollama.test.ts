/**
 * Log probabilities from Ollama's native `/api/chat` (since 0.12.11: `logprobs`, `top_logprobs`, and a
 * top-level `logprobs` list per chunk, api/types.go) through Chat Completions, read by the real `openai`
 * client: asked of the upstream as the client gave them, and the content's own tokens returned, whole and
 * streamed, without those of thinking or tool calls; an upstream that ignores them is said to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeOllamaTokenLogprob, startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { gatewayOverUpstream } from '../../helpers/gateway-over-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import { streamedTextLogprobs, wholeReplyLogprobs, type Diagnosed } from '../../helpers/logprobs-replies.js';

const setup = gatewayOverUpstream(startFakeOllamaUpstream, (url) => ({ local: testProvider('ollama', url, { toolCalling: 'native' }) }));

/** The fake's content tokens (one piece of three characters, one token), numbered from `first`. */
function tokensOf(pieces: string[], top: number, first = 0): unknown[] {
  return pieces.map((piece, position) => ({ top_logprobs: [], ...fakeOllamaTokenLogprob(piece, first + position, top) }));
}

function lastBody(): Record<string, unknown> {
  return setup.upstream.requests.at(-1)?.body as Record<string, unknown>;
}

describe('ollama /api/chat log probabilities', () => {
  it('are asked for as given, and a whole reply returns every content token', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'Hello world' });
    const completion = await setup.client.chat.completions.create({
      model: 'local/llama3.1:8b',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(lastBody()).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(wholeReplyLogprobs(completion)).toEqual({
      content: 'Hello world',
      logprobs: { content: tokensOf(['Hel', 'lo ', 'wor', 'ld'], 2), refusal: null },
      schemaErrors: [],
      diagnostics: undefined,
    });
  });

  it('stream each chunk with the tokens of its text', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'Hello world' });
    const stream = await setup.client.chat.completions.create({
      model: 'local/llama3.1:8b',
      messages: [{ role: 'user', content: 'hi' }],
      logprobs: true,
      top_logprobs: 1,
      stream: true,
    });
    const { withText } = await streamedTextLogprobs(stream);
    expect(withText).toEqual(
      ['Hel', 'lo ', 'wor', 'ld'].map((piece, position) => ({ content: piece, logprobs: tokensOf([piece], 1, position) })),
    );
  });

  it.each([false, true])('leave out the tokens of thinking, of its end and of tool calls (stream: %s)', async (streamed) => {
    setup.upstream.enqueue({
      type: 'chat',
      thinking: 'Hmm.',
      content: 'Sure.',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
    });
    const request = {
      model: 'local/qwen3:8b',
      messages: [{ role: 'user' as const, content: 'Weather?' }],
      tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }],
      logprobs: true,
    };
    let tokens: unknown[] = [];
    let diagnostics: Diagnosed['diagnostics'];
    if (streamed) {
      for await (const chunk of await setup.client.chat.completions.create({ ...request, stream: true })) {
        tokens.push(...(chunk.choices[0]?.logprobs?.content ?? []));
        diagnostics ??= (chunk as Diagnosed).diagnostics;
      }
    } else {
      const completion = await setup.client.chat.completions.create(request);
      expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
      tokens = completion.choices[0]?.logprobs?.content ?? [];
      diagnostics = (completion as Diagnosed).diagnostics;
    }
    // Thinking 'Hmm', '.' and '</think>' are tokens 0–2; the content's follow.
    expect(tokens).toEqual(tokensOf(['Sur', 'e.'], 0, 3));
    expect(diagnostics).toBeUndefined();
  });

  it('are not asked for when the client did not ask, and nothing comes back', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'ok' });
    const completion = await setup.client.chat.completions.create({
      model: 'local/llama3.1:8b',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(lastBody()).not.toHaveProperty('logprobs');
    expect(lastBody()).not.toHaveProperty('top_logprobs');
    expect(completion.choices[0]?.logprobs).toBeNull();
  });
});

describe.each([
  ['whole', false],
  ['streamed', true],
])('log probabilities an upstream ignores, %s', (_name, streamed) => {
  let older: FakeOllamaUpstream;
  let compatible: FakeOpenAiUpstream;
  let quiet: StartedGateway;

  beforeAll(async () => {
    [older, compatible] = await Promise.all([startFakeOllamaUpstream({ beforeLogprobs: true }), startFakeOpenAiUpstream()]);
    quiet = await startGateway({
      providers: {
        older: testProvider('ollama', older.url, { toolCalling: 'native' }),
        compatible: testProvider('openai-compatible', `${compatible.url}/v1`, { toolCalling: 'native' }),
      },
    });
  });

  afterAll(async () => {
    await quiet?.close();
    await Promise.all([older?.close(), compatible?.close()]);
  });

  /** The reply's text, its tokens and its warning codes, read by the real client. */
  async function ask(model: string): Promise<{ text: string; tokens: unknown[]; warnings: string[] }> {
    const request = { model, messages: [{ role: 'user' as const, content: 'hi' }], logprobs: true, top_logprobs: 2 };
    let text = '';
    const tokens: unknown[] = [];
    let diagnostics: Diagnosed['diagnostics'];
    if (streamed) {
      for await (const chunk of await quiet.client().chat.completions.create({ ...request, stream: true })) {
        text += chunk.choices[0]?.delta.content ?? '';
        tokens.push(...(chunk.choices[0]?.logprobs?.content ?? []));
        diagnostics ??= (chunk as Diagnosed).diagnostics;
      }
    } else {
      const completion = await quiet.client().chat.completions.create(request);
      text = completion.choices[0]?.message.content ?? '';
      tokens.push(...(completion.choices[0]?.logprobs?.content ?? []));
      diagnostics = (completion as Diagnosed).diagnostics;
    }
    return { text, tokens, warnings: diagnostics?.warnings?.map((warning) => warning.code) ?? [] };
  }

  it('an Ollama before 0.12.11 answers without them: the reply says so in a logprobs-partial warning', async () => {
    older.enqueue({ type: 'chat', content: 'Hello world' });
    const reply = await ask('older/llama3.1:8b');
    expect(older.requests.at(-1)?.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(reply).toEqual({ text: 'Hello world', tokens: [], warnings: ['logprobs-partial'] });
  });

  it('an OpenAI-compatible server that ignores them: the same warning', async () => {
    compatible.enqueue({ type: 'chat', content: 'Hello world', ignoresLogprobs: true });
    expect(await ask('compatible/gpt-fake-1')).toEqual({ text: 'Hello world', tokens: [], warnings: ['logprobs-partial'] });
  });
});
