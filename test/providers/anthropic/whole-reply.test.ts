/** The anthropic adapter for a client that reads the reply whole: one `message` body, the streamed events, honest failures. */
import { describe, expect, it } from 'vitest';
import type { ProviderContext } from '../../../src/core/index.js';
import type { FakeAnthropicReply } from '../../helpers/fake-anthropic-upstream.js';
import { sleep } from '../../helpers/loopback-server.js';
import { collectEvents, gatewayErrorOf, testContext, testRequest } from './anthropic-test-kit.js';
import { newAdapter, upstream, useFakeAnthropic } from './anthropic-fixture.js';

useFakeAnthropic();

function wholeContext(signal?: AbortSignal): ProviderContext {
  return { ...testContext(signal), wholeReply: true };
}

const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

describe('anthropic whole replies', () => {
  it('asks the upstream for one whole message', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Hi' }] });
    await collectEvents(await newAdapter().stream(testRequest(), wholeContext()));
    expect(upstream.messageRequests().at(-1)?.body).toMatchObject({ stream: false });
  });

  it('streams from Anthropic (and folds) when max_tokens is past what Anthropic answers whole', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Long one' }] });
    const events = await collectEvents(await newAdapter().stream(testRequest({ maxOutputTokens: 32_000 }), wholeContext()));
    expect(upstream.messageRequests().at(-1)?.body).toMatchObject({ stream: true, max_tokens: 32_000 });
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('Long one');
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Short one' }] });
    await collectEvents(await newAdapter().stream(testRequest({ maxOutputTokens: 21_333 }), wholeContext()));
    expect(upstream.messageRequests().at(-1)?.body).toMatchObject({ stream: false, max_tokens: 21_333 });
  });

  // Fragments as long as the content: the streamed reply then carries each run in one delta, so the
  // two event lists must be equal exactly, ids, signatures, indexes and usage included.
  const oneDelta = 100_000;
  it.each<[string, FakeAnthropicReply]>([
    [
      'thinking with its signature, redacted thinking, whitespace text, parallel tool calls and cache usage',
      {
        type: 'message',
        id: 'msg_same_1',
        fragmentSize: oneDelta,
        content: [
          { type: 'thinking', thinking: 'Two cities, two calls.', signature: 'c2lnbmF0dXJl' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
          { type: 'text', text: 'Checking both.\n ' },
          { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Paris', note: 'quote " and brace }' } },
          { type: 'tool_use', id: 'toolu_B', name: 'get_weather', input: { city: 'Rome' } },
        ],
        usage: { input_tokens: 10, cache_creation_input_tokens: 3, cache_read_input_tokens: 5, output_tokens: 7 },
      },
    ],
    [
      'a call without arguments',
      { type: 'message', id: 'msg_same_2', content: [{ type: 'tool_use', id: 'toolu_E', name: 'list_files', input: '' }] },
    ],
    [
      'a max_tokens stop',
      { type: 'message', id: 'msg_same_3', fragmentSize: oneDelta, content: [{ type: 'text', text: 'cut' }], stopReason: 'max_tokens' },
    ],
  ])('yields exactly the events of the streamed reply: %s', async (_name, reply) => {
    const adapter = newAdapter();
    upstream.enqueue(reply);
    const whole = await collectEvents(await adapter.stream(testRequest({ tools }), wholeContext()));
    upstream.enqueue(reply);
    const streamed = await collectEvents(await adapter.stream(testRequest({ tools }), testContext()));
    expect(whole).toEqual(streamed);
    expect(whole.at(-1)?.type).toBe('finish');
  });

  it('gives a tool input nested 20,000 deep as its JSON text, as a streamed reply spells it (JSON.stringify overflowed: a 500)', async () => {
    const depth = 20_000;
    const input = `{"city":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    // Verbatim: the fake's own JSON.stringify could not write this message either.
    const body = `{"id":"msg_deep","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_D","name":"get_weather","input":${input}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":2}}`;
    upstream.enqueue({ type: 'raw', status: 200, contentType: 'application/json', body });
    const events = await collectEvents(await newAdapter().stream(testRequest({ tools }), wholeContext()));
    const end = events.find((event) => event.type === 'tool-call-end');
    expect(end?.type === 'tool-call-end' && end.arguments === input).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls' } });
  });

  it('keeps the thinking signature, the tool ids and the cache tokens as the stream does', async () => {
    upstream.enqueue({
      type: 'message',
      content: [
        { type: 'thinking', thinking: 'Hmm.', signature: 'c2ln' },
        { type: 'tool_use', id: 'toolu_K', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      usage: { input_tokens: 4, cache_read_input_tokens: 6, output_tokens: 2 },
    });
    const events = await collectEvents(await newAdapter().stream(testRequest({ tools }), wholeContext()));
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-delta', delta: 'Hmm.' },
      { type: 'reasoning-signature', signature: 'c2ln' },
      { type: 'tool-call-start', index: 0, id: 'toolu_K', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Oslo"}' },
      { type: 'tool-call-end', index: 0, arguments: '{"city":"Oslo"}' },
      {
        type: 'finish',
        reason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: {
          inputTokens: 10,
          cachedInputTokens: 6,
          cacheWriteInputTokens: 0,
          outputTokens: 2,
          totalTokens: 12,
          raw: { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 6, output_tokens: 2 },
        },
      },
    ]);
  });
});

describe('anthropic whole replies that fail reject stream()', () => {
  it.each([
    ['overloaded_error', { status: 502, code: 'overloaded' }],
    ['rate_limit_error', { status: 429, type: 'rate_limit_error' }],
    ['api_error', { status: 502, type: 'upstream_error', code: 'api_error' }],
  ])('maps an error envelope sent with 200 (%s)', async (errorType, expected) => {
    upstream.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'never' }],
      interruption: { type: 'error-event', afterEvents: 0, errorType, message: 'upstream said no' },
    });
    const error = await gatewayErrorOf(newAdapter().stream(testRequest(), wholeContext()));
    expect(error).toMatchObject(expected);
    expect(error.message).toContain('upstream said no');
  });

  it.each([
    ['a body that is not JSON', '<html>oops</html>'],
    ['a JSON body that is not an object', '[1,2]'],
    ['an object without content blocks', '{"type":"message","id":"msg_x"}'],
  ])('rejects %s as a 502', async (_name, body) => {
    upstream.enqueue({ type: 'raw', status: 200, contentType: 'application/json', body });
    expect(await gatewayErrorOf(newAdapter().stream(testRequest(), wholeContext()))).toMatchObject({
      status: 502,
      type: 'upstream_error',
      code: 'upstream_bad_response',
    });
  });

  it.each([
    ['ends half-way through the JSON', 'end'],
    ['drops the connection half-way through the JSON', 'destroy'],
  ] as const)('rejects a body that %s as a 502', async (_name, type) => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'cut short' }], interruption: { type, afterEvents: 0 } });
    expect(await gatewayErrorOf(newAdapter().stream(testRequest(), wholeContext()))).toMatchObject({ status: 502, type: 'upstream_error' });
  });

  it('rejects a body that falls silent for longer than bodyMs as a 504', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'stalls' }], interruption: { type: 'hold', afterEvents: 0 } });
    const adapter = newAdapter({ timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 150 } });
    expect(await gatewayErrorOf(adapter.stream(testRequest(), wholeContext()))).toMatchObject({ status: 504, type: 'timeout_error' });
  });

  it('aborts the upstream request when the client aborts while the body is awaited', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'long answer' }], interruption: { type: 'hold', afterEvents: 0 } });
    const controller = new AbortController();
    const arrived = upstream.nextRequest();
    const pending = gatewayErrorOf(newAdapter().stream(testRequest(), wholeContext(controller.signal)));
    const recorded = await arrived;
    // Let the headers and the first half of the body arrive, so the abort lands while the body is read.
    await sleep(50);
    controller.abort();
    // Said as what it is (the client left), not as an upstream failure.
    expect(await pending).toMatchObject({ status: 499, code: 'client_closed_request' });
    for (let attempt = 0; attempt < 200 && !recorded.aborted; attempt++) await sleep(10);
    expect(recorded.aborted).toBe(true);
  });
});
