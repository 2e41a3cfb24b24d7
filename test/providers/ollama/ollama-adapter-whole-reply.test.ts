/** The Ollama adapter for a client that reads the reply whole: `stream: false`, the streamed events, honest failures. */
import { describe, expect, it } from 'vitest';
import type { ProviderContext, StreamEvent } from '../../../src/core/index.js';
import { createOllamaAdapter } from '../../../providers/ollama/index.js';
import type { FakeOllamaChatReply, FakeOllamaReply } from '../../helpers/fake-ollama-upstream.js';
import { sleep } from '../../helpers/loopback-server.js';
import { chatRequest, collectEvents, ollamaConfig, providerContext, rejectionOf } from './ollama-test-kit.js';
import { adapter, upstream, useFakeOllama } from './ollama-fixture.js';

useFakeOllama();

function wholeContext(signal?: AbortSignal): ProviderContext {
  return { ...providerContext(signal), wholeReply: true };
}

/** Ollama mints no reply id, so the gateway mints a fresh one per reply. */
function withoutReplyId(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) => (event.type === 'response-start' ? { ...event, id: 'minted' } : event));
}

const request = chatRequest({ tools: [{ name: 'get_weather', parameters: {} }] });

describe('ollama adapter: whole replies', () => {
  it('asks the upstream for one whole reply', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hello' });
    const events = await collectEvents(await adapter.stream(request, wholeContext()));
    expect(upstream.requests.at(-1)?.body).toMatchObject({ stream: false });
    expect(events[0]).toMatchObject({ type: 'response-start', id: expect.stringMatching(/^ollama-[0-9a-f]{24}$/), model: 'llama3.1:8b' });
  });

  // Pieces as long as the content: the streamed reply then carries each run in one chunk, so the two
  // event lists must be equal exactly (Ollama sends tool calls whole either way).
  const onePiece = 100_000;
  it.each<[string, FakeOllamaReply]>([
    [
      'thinking, whitespace text, parallel tool calls and counts',
      {
        type: 'chat',
        thinking: 'Two cities.',
        content: 'Checking\n ',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
        promptEvalCount: 17,
        evalCount: 9,
        pieceSize: onePiece,
      },
    ],
    ['a length stop', { type: 'chat', content: 'cut', doneReason: 'length', pieceSize: onePiece }],
  ])('yields exactly the events of the streamed reply: %s', async (_name, reply) => {
    upstream.enqueue(reply);
    const whole = await collectEvents(await adapter.stream(request, wholeContext()));
    upstream.enqueue(reply);
    const streamed = await collectEvents(await adapter.stream(request, providerContext()));
    expect(withoutReplyId(whole)).toEqual(withoutReplyId(streamed));
    expect(whole.at(-1)?.type).toBe('finish');
  });
});

describe('ollama adapter: whole replies that fail reject stream()', () => {
  it('passes a failed generation (500 with an error body) on with its message', async () => {
    upstream.enqueue({ type: 'chat', content: 'never', streamError: { afterChunks: 0, message: 'model runner crashed' } });
    const error = await rejectionOf(adapter.stream(request, wholeContext()));
    expect(error).toMatchObject({ status: 500, type: 'upstream_error' });
    expect(error.message).toContain('model runner crashed');
  });

  it('turns an error body sent with 200 into a 502 with its message', async () => {
    upstream.enqueue({ type: 'raw', status: 200, contentType: 'application/json', body: '{"error":"out of memory"}' });
    const error = await rejectionOf(adapter.stream(request, wholeContext()));
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(error.message).toContain('out of memory');
  });

  it.each([
    ['a body that is not JSON', '<html>oops</html>'],
    ['a reply that never says done', '{"model":"llama3.1:8b","message":{"role":"assistant","content":"hi"},"done":false}'],
    ['a JSON body that is not an object', '[1,2]'],
  ])('rejects %s as a 502', async (_name, body) => {
    upstream.enqueue({ type: 'raw', status: 200, contentType: 'application/json', body });
    expect(await rejectionOf(adapter.stream(request, wholeContext()))).toMatchObject({
      status: 502,
      type: 'upstream_error',
      code: 'upstream_bad_response',
    });
  });

  it.each<[string, Pick<FakeOllamaChatReply, 'endAfterChunks' | 'destroyAfterChunks'>]>([
    ['ends half-way through the JSON', { endAfterChunks: 1 }],
    ['drops the connection half-way through the JSON', { destroyAfterChunks: 1 }],
  ])('rejects a body that %s as a 502', async (_name, failure) => {
    upstream.enqueue({ type: 'chat', content: 'Hello there', ...failure });
    expect(await rejectionOf(adapter.stream(request, wholeContext()))).toMatchObject({ status: 502, type: 'upstream_error' });
  });

  it('rejects a body that falls silent for longer than bodyMs as a 504', async () => {
    const impatient = createOllamaAdapter(ollamaConfig(upstream.url, { timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 150 } }));
    try {
      upstream.enqueue({ type: 'chat', content: 'stalls', holdOpen: true });
      expect(await rejectionOf(impatient.stream(request, wholeContext()))).toMatchObject({ status: 504, type: 'timeout_error' });
    } finally {
      await impatient.close?.();
    }
  });

  it('aborts the upstream request when the client aborts while the body is awaited', async () => {
    upstream.enqueue({ type: 'chat', content: 'Hello there', holdOpen: true });
    const controller = new AbortController();
    const arrived = upstream.nextRequest();
    const pending = rejectionOf(adapter.stream(request, wholeContext(controller.signal)));
    const sent = await arrived;
    // Let the headers and the first half of the body arrive, so the abort lands while the body is read.
    await sleep(50);
    controller.abort();
    expect((await pending).code).toBe('client_closed_request');
    await upstream.waitForAbort(sent);
  });
});
