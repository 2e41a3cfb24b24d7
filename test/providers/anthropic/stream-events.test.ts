/** The events the anthropic adapter produces from a streamed Messages reply. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderAdapter, StreamEvent } from '../../../src/core/index.js';
import { createAnthropicAdapter } from '../../../providers/anthropic/index.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { collectEvents, testConfig, testContext, testRequest } from './anthropic-test-kit.js';

let upstream: FakeAnthropicUpstream;
let adapter: ProviderAdapter;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
  adapter = createAnthropicAdapter(testConfig(upstream.url));
});
afterAll(async () => {
  await adapter.close?.();
  await upstream.close();
});

const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

function joined(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.delta : '')).join('');
}

describe('anthropic stream events', () => {
  it('streams text between response-start and one finish, keeping whitespace deltas', async () => {
    upstream.enqueue({
      type: 'message',
      id: 'msg_text_1',
      content: [{ type: 'text', text: 'Hello,  world\n ' }],
      fragmentSize: 2,
      usage: { input_tokens: 12, output_tokens: 4 },
    });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(events[0]).toEqual({ type: 'response-start', id: 'msg_text_1', model: 'claude-fake-1', warnings: [] });
    expect(events.slice(1, -1)).toEqual(['He', 'll', 'o,', '  ', 'wo', 'rl', 'd\n', ' '].map((delta) => ({ type: 'text-delta', delta })));
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: 12,
        outputTokens: 4,
        totalTokens: 16,
        cachedInputTokens: 0,
        cacheWriteInputTokens: 0,
        raw: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 },
      },
    });
  });

  it('streams thinking as reasoning deltas followed by its signature', async () => {
    upstream.enqueue({
      type: 'message',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
        { type: 'text', text: 'Done.' },
      ],
    });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(joined(events, 'reasoning-delta')).toBe('Let me think.');
    expect(joined(events, 'text-delta')).toBe('Done.');
    const signatureAt = events.findIndex((event) => event.type === 'reasoning-signature');
    expect(events[signatureAt]).toEqual({ type: 'reasoning-signature', signature: 'ZmFrZXNpZw==' });
    expect(events.findLastIndex((event) => event.type === 'reasoning-delta')).toBeLessThan(signatureAt);
    expect(events.findIndex((event) => event.type === 'text-delta')).toBeGreaterThan(signatureAt);
  });

  it('keeps parallel tool calls apart with indexes 0 and 1 through one-character fragments', async () => {
    const firstArguments = { city: 'Paris', units: 'metric', note: 'quote " and brace }' };
    const secondArguments = { city: 'Rome' };
    upstream.enqueue({
      type: 'message',
      fragmentSize: 1,
      content: [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: firstArguments },
        { type: 'tool_use', id: 'toolu_B', name: 'get_weather', input: secondArguments },
      ],
    });
    const events = await collectEvents(await adapter.stream(testRequest({ tools: [weatherTool] }), testContext()));
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_A', name: 'get_weather' },
      { type: 'tool-call-start', index: 1, id: 'toolu_B', name: 'get_weather' },
    ]);
    for (const [index, expected] of [firstArguments, secondArguments].entries()) {
      const deltas = events.filter((event) => event.type === 'tool-call-delta' && event.index === index);
      expect(deltas.length).toBe(JSON.stringify(expected).length);
      const concatenated = deltas.map((event) => (event.type === 'tool-call-delta' ? event.argumentsDelta : '')).join('');
      const end = events.find((event) => event.type === 'tool-call-end' && event.index === index);
      expect(end).toEqual({ type: 'tool-call-end', index, arguments: concatenated });
      expect(JSON.parse(concatenated)).toEqual(expected);
    }
    // Every delta of call 0 comes between its start and end, before call 1 starts.
    const order = events.map((event) => ('index' in event ? `${event.type}:${event.index}` : event.type));
    expect(order.lastIndexOf('tool-call-delta:0')).toBeLessThan(order.indexOf('tool-call-end:0'));
    expect(order.indexOf('tool-call-end:0')).toBeLessThan(order.indexOf('tool-call-start:1'));
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_use' } });
  });

  it('gives a call without argument fragments one "{}" delta', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'tool_use', id: 'toolu_E', name: 'list_files', input: '' }] });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_E', name: 'list_files' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
    ]);
  });

  it('counts cache reads and writes into input tokens and reports cached tokens', async () => {
    upstream.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'cached' }],
      usage: { input_tokens: 10, cache_creation_input_tokens: 3, cache_read_input_tokens: 5, output_tokens: 7 },
    });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      usage: { inputTokens: 18, cachedInputTokens: 5, outputTokens: 7, totalTokens: 25, raw: { cache_read_input_tokens: 5 } },
    });
  });

  it.each([
    ['max_tokens', { unified: 'length', raw: 'max_tokens' }],
    ['stop_sequence', { unified: 'stop', raw: 'stop_sequence' }],
    ['refusal', { unified: 'content-filter', raw: 'refusal' }],
    ['pause_turn', { unified: 'other', raw: 'pause_turn' }],
    ['something_new', { unified: 'other', raw: 'something_new' }],
  ])('maps stop_reason %s', async (stopReason, reason) => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'x' }], stopReason });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason });
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  });

  it('passes a redacted thinking block on whole, as one event in its place, and keeps the text around it', async () => {
    upstream.enqueue({
      type: 'message',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'text', text: 'visible' },
      ],
    });
    const events = await collectEvents(await adapter.stream(testRequest(), testContext()));
    expect(events.map((event) => event.type)).toEqual([
      'response-start',
      'reasoning-redacted',
      'text-delta',
      'text-delta',
      'text-delta',
      'finish',
    ]);
    expect(events[1]).toEqual({ type: 'reasoning-redacted', data: 'EmwKAhgBEgy3va3pzix' });
    expect(joined(events, 'text-delta')).toBe('visible');
  });
});
