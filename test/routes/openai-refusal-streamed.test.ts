/**
 * An OpenAI refusal streamed through the gateway (the words in `delta.refusal` pieces, as OpenAI sends them:
 * test/fixtures/wire/openai/refusal-streamed.sse; https://platform.openai.com/docs/guides/structured-outputs#refusals)
 * reaches each inbound API piece by piece as it arrives: Chat as `delta.refusal`, Responses as
 * `response.refusal.delta` events, Messages as text deltas. A stream cut off midway has sent the words it got
 * before its error. The real `openai` client accumulates what the gateway sends.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTokenLogprob, startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startGateway({ providers: { oai: testProvider('openai', `${upstream.url}/v1`, { apiKey: 'sk-upstream' }) } });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const model = 'oai/gpt-4o-2024-08-06';
const pieces = ["I'm", ' sorry,', ' I', " can't", ' assist', ' with', ' that.'];
const words = pieces.join('');

type Api = {
  name: string;
  path: string;
  body: Record<string, unknown>;
  /** The refusal words one SSE payload carries, as this API streams them. */
  wordsOf(payload: Record<string, unknown>): string;
  /** Whether the payload is this API's in-stream error. */
  isError(payload: Record<string, unknown>): boolean;
};

const chatApi: Api = {
  name: 'Chat Completions',
  path: '/v1/chat/completions',
  body: { model, messages: [{ role: 'user', content: 'x' }], stream: true },
  wordsOf: (payload) => (payload.choices as { delta?: { refusal?: string } }[] | undefined)?.[0]?.delta?.refusal ?? '',
  isError: (payload) => payload.error !== undefined,
};

const responsesApi: Api = {
  name: 'Responses',
  path: '/v1/responses',
  body: { model, input: 'x', stream: true },
  wordsOf: (payload) => (payload.type === 'response.refusal.delta' ? (payload.delta as string) : ''),
  isError: (payload) => payload.type === 'response.failed',
};

const messagesApi: Api = {
  name: 'Anthropic Messages',
  path: '/v1/messages',
  body: { model, max_tokens: 100, messages: [{ role: 'user', content: 'x' }], stream: true },
  wordsOf: (payload) => (payload.type === 'content_block_delta' ? ((payload.delta as { text?: string }).text ?? '') : ''),
  isError: (payload) => payload.type === 'error',
};

const apis = [chatApi, responsesApi, messagesApi];

/**
 * Reads the stream's SSE payloads until `enough` holds of them or the body ends; then leaves (aborts the
 * request). A reply held back whole until the upstream finishes never satisfies `enough` while it waits.
 */
async function readPayloads(
  api: Api,
  enough: (payloads: Record<string, unknown>[]) => boolean,
  timeoutMs = 5_000,
): Promise<Record<string, unknown>[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const payloads: Record<string, unknown>[] = [];
  try {
    const response = await fetch(`${gateway.baseUrl}${api.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(api.body),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames)
        for (const line of frame.split('\n'))
          if (line.startsWith('data: ') && line !== 'data: [DONE]') payloads.push(JSON.parse(line.slice(6)) as Record<string, unknown>);
      if (enough(payloads)) break;
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return payloads;
}

const wordsIn = (api: Api, payloads: Record<string, unknown>[]) => payloads.map((payload) => api.wordsOf(payload)).join('');

describe.each(apis)('an OpenAI refusal streamed to $name', (api) => {
  it('reaches the client piece by piece while the upstream is still generating', async () => {
    // The role chunk and two pieces are sent; then the upstream holds the stream open.
    upstream.enqueue({ type: 'chat', refusal: pieces, holdAfterChunks: 3 });
    const sent = pieces.slice(0, 2).join('');
    const payloads = await readPayloads(api, (received) => wordsIn(api, received) === sent);
    expect(wordsIn(api, payloads)).toBe(sent);
  });

  it('cut off midway, sends the words received and then its own stream error', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces, cutAfterChunks: 4 });
    const payloads = await readPayloads(api, () => false);
    expect(wordsIn(api, payloads)).toBe(pieces.slice(0, 3).join(''));
    const errorAt = payloads.findIndex((payload) => api.isError(payload));
    expect(errorAt).toBe(payloads.length - 1);
  });
});

describe('the real openai client', () => {
  it('accumulates a streamed Chat refusal in message.refusal, one refusal.delta per piece', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces });
    const stream = client.chat.completions.stream({ model, messages: [{ role: 'user', content: 'x' }] });
    const deltas: string[] = [];
    stream.on('refusal.delta', ({ delta }) => deltas.push(delta));
    const completion = await stream.finalChatCompletion();
    expect(deltas).toEqual(pieces);
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: words });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('accumulates a streamed Responses refusal as the message’s refusal part, one delta per piece', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces });
    const stream = client.responses.stream({ model, input: 'x' });
    const deltas: string[] = [];
    stream.on('response.refusal.delta', ({ delta }) => deltas.push(delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(pieces);
    expect(final.output).toHaveLength(1);
    expect(final.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: words }] });
    expect(final.status).toBe('completed');
  });
});

describe('a refusal’s log probabilities on Chat Completions', () => {
  const tokens = pieces.map((piece, position) => fakeTokenLogprob(piece, position, 2));

  it('stream in logprobs.refusal, as the openai client accumulates them', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces });
    const stream = client.chat.completions.stream({ model, messages: [{ role: 'user', content: 'x' }], logprobs: true, top_logprobs: 2 });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.message.refusal).toBe(words);
    expect(completion.choices[0]?.logprobs?.refusal).toEqual(tokens);
  });

  it('come whole in logprobs.refusal, content null', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces });
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'x' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(completion.choices[0]?.message).toMatchObject({ content: null, refusal: words });
    expect(completion.choices[0]?.logprobs).toEqual({ content: null, refusal: tokens });
  });

  it('are not sent when the client did not ask for them', async () => {
    upstream.enqueue({ type: 'chat', refusal: pieces });
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0]?.message.refusal).toBe(words);
    expect(completion.choices[0]?.logprobs).toBeNull();
  });
});
