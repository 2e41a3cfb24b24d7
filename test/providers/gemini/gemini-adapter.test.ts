/** The gemini adapter against a fake Gemini: what it sends, the events it yields streamed and whole, errors, models. */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import { decodeGeminiCallId } from '../../../providers/gemini/gemini-tool-call-id.js';
import { gatewayErrorOf } from '../anthropic/anthropic-test-kit.js';
import { collectEvents, testContext, testRequest, useFakeGemini } from './gemini-test-kit.js';

const fixture = useFakeGemini();

async function run(wholeReply: boolean): Promise<StreamEvent[]> {
  return collectEvents(
    await fixture
      .adapter()
      .stream(testRequest({ tools: [{ name: 'get_weather', parameters: { type: 'object' } }] }), testContext({ wholeReply })),
  );
}

const signedTurn = {
  type: 'generate' as const,
  chunks: [
    [{ text: 'Let me look.', thought: true }],
    [{ text: 'Checking ' }],
    [
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLW9uZQ==' },
      { functionCall: { id: 'fc-2', name: 'get_weather', args: { city: 'Rome' } } },
    ],
  ],
  usage: { promptTokenCount: 30, candidatesTokenCount: 12, thoughtsTokenCount: 40, cachedContentTokenCount: 8 },
};

describe.each([
  ['streamed', false],
  ['whole', true],
])('a %s reply', (_name, wholeReply) => {
  it('asks the right endpoint with the key in x-goog-api-key', async () => {
    fixture.upstream().enqueue({ type: 'generate', chunks: [[{ text: 'Hi' }]] });
    await run(wholeReply);
    const request = fixture.upstream().generateRequests().at(-1);
    expect(request?.path).toBe(
      wholeReply ? '/v1beta/models/gemini-2.5-flash:generateContent' : '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(request?.headers['x-goog-api-key']).toBe('gemini-test-key');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('yields thoughts as reasoning, text, whole function calls with ids (signature kept in the id), usage and tool_calls', async () => {
    fixture.upstream().enqueue(signedTurn);
    const events = await run(wholeReply);
    expect(events[0]).toMatchObject({ type: 'response-start', model: 'gemini-2.5-flash' });
    expect(events.filter((event) => event.type === 'reasoning-delta')).toEqual([{ type: 'reasoning-delta', delta: 'Let me look.' }]);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([{ type: 'text-delta', delta: 'Checking ' }]);
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts.map((event) => event.name)).toEqual(['get_weather', 'get_weather']);
    expect(decodeGeminiCallId(starts[0]?.id ?? '')).toMatchObject({ thoughtSignature: 'c2lnLW9uZQ==' });
    expect(starts[1]?.id).toBe('fc-2');
    expect(events.filter((event) => event.type === 'tool-call-end').map((event) => event.arguments)).toEqual([
      '{"city":"Paris"}',
      '{"city":"Rome"}',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 30, outputTokens: 52, reasoningTokens: 40, cachedInputTokens: 8, totalTokens: 82 },
    });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content-filter'],
    ['RECITATION', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['OTHER', 'other'],
  ])('maps finishReason %s to %s', async (finishReason, unified) => {
    fixture.upstream().enqueue({ type: 'generate', chunks: [[{ text: 'partial' }]], finishReason });
    expect((await run(wholeReply)).at(-1)).toMatchObject({ type: 'finish', reason: { unified, raw: finishReason } });
  });

  it('ends a prompt blocked by promptFeedback as content-filter', async () => {
    fixture.upstream().enqueue({ type: 'generate', chunks: [[]], promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } });
    expect((await run(wholeReply)).at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' },
    });
  });

  it.each([
    [400, 400, 'invalid_request_error', 'invalid_argument'],
    [429, 429, 'rate_limit_error', 'resource_exhausted'],
    [503, 503, 'upstream_error', 'unavailable'],
  ])("keeps a %i's meaning (status %i, %s, code %s) with Google's message", async (status, expectedStatus, type, code) => {
    fixture
      .upstream()
      .enqueue({ type: 'http-error', status, message: 'API key not valid. Please pass a valid API key.', headers: { 'retry-after': '9' } });
    const error = await gatewayErrorOf(fixture.adapter().stream(testRequest(), testContext({ wholeReply })));
    expect(error).toMatchObject({ status: expectedStatus, type, code });
    expect(error.message).toContain('API key not valid.');
    if (status === 429) expect(error.retryAfter).toBe('9');
  });

  it("a 401 is the gateway's key refused: a 502 upstream_authentication_failed, Google's words (which may quote the key) left out", async () => {
    fixture.upstream().enqueue({ type: 'http-error', status: 401, message: 'API key not valid. Please pass a valid API key.' });
    const error = await gatewayErrorOf(fixture.adapter().stream(testRequest(), testContext({ wholeReply })));
    expect(error).toMatchObject({ status: 502, type: 'upstream_error', code: 'upstream_authentication_failed', upstreamStatus: 401 });
    expect(error.message).not.toContain('API key not valid.');
  });
});

describe('stream failures', () => {
  it('turns an error event after some text into one terminal error', async () => {
    fixture.upstream().enqueue({
      type: 'generate',
      chunks: [[{ text: 'a' }], [{ text: 'b' }], [{ text: 'c' }]],
      interruption: { type: 'error-event', afterChunks: 2, message: 'The model is overloaded.' },
    });
    const events = await run(false);
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(2);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type === 'error')
      expect(last.error).toMatchObject({ status: 502, code: 'internal', message: expect.stringContaining('The model is overloaded.') });
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(0);
  });

  it('treats a stream that ends before any finishReason as cut', async () => {
    fixture
      .upstream()
      .enqueue({ type: 'generate', chunks: [[{ text: 'a' }], [{ text: 'b' }]], interruption: { type: 'destroy', afterChunks: 1 } });
    expect((await run(false)).at(-1)).toMatchObject({ type: 'error', error: { status: 502 } });
  });
});

describe('listModels', () => {
  it('lists the models that can generate content, without the models/ prefix', async () => {
    const models = await fixture.adapter().listModels?.(testContext());
    expect(models).toEqual([
      { id: 'gemini-2.5-flash', ownedBy: 'google' },
      { id: 'gemini-2.5-pro', ownedBy: 'google' },
    ]);
    expect(fixture.upstream().requests.at(-1)?.headers['x-goog-api-key']).toBe('gemini-test-key');
  });
});
