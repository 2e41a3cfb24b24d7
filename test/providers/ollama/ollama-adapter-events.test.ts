/** What the Ollama adapter yields: reasoning, text, whole tool calls with running indexes, finish and usage. */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import type { FakeOllamaReply } from '../../helpers/fake-ollama-upstream.js';
import { chatRequest, collectEvents, lastEvent, providerContext, textOf } from './ollama-test-kit.js';
import { adapter, upstream, useFakeOllama } from './ollama-fixture.js';

useFakeOllama();

async function run(reply: FakeOllamaReply): Promise<StreamEvent[]> {
  upstream.enqueue(reply);
  return collectEvents(await adapter.stream(chatRequest({ tools: [{ name: 'get_weather', parameters: {} }] }), providerContext()));
}

describe('ollama adapter: events', () => {
  it('streams text in pieces, then finishes with mapped usage and the raw counters', async () => {
    const events = await run({ type: 'chat', content: 'Hello there, world.', promptEvalCount: 17, evalCount: 5 });
    const start = events[0];
    expect(start).toEqual({
      type: 'response-start',
      id: expect.stringMatching(/^ollama-[0-9a-f]{24}$/),
      model: 'llama3.1:8b',
      warnings: [],
    });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(3);
    expect(textOf(events)).toBe('Hello there, world.');
    expect(lastEvent(events)).toEqual({
      type: 'finish',
      reason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: 17,
        outputTokens: 5,
        totalTokens: 22,
        raw: {
          total_duration: 5_000_000,
          load_duration: 1_000_000,
          prompt_eval_count: 17,
          prompt_eval_duration: 2_000_000,
          eval_count: 5,
          eval_duration: 2_000_000,
        },
      },
    });
  });

  it('keeps whitespace-only deltas', async () => {
    const events = await run({ type: 'chat', content: 'a \n\n b', pieceSize: 1 });
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.type === 'text-delta' && event.delta)).toEqual([
      'a',
      ' ',
      '\n',
      '\n',
      ' ',
      'b',
    ]);
  });

  it('turns `thinking` into reasoning deltas before the text', async () => {
    const events = await run({ type: 'chat', thinking: 'Let me think about it.', content: 'Yes.' });
    expect(textOf(events, 'reasoning-delta')).toBe('Let me think about it.');
    expect(textOf(events)).toBe('Yes.');
    const firstText = events.findIndex((event) => event.type === 'text-delta');
    const lastReasoning = events.map((event) => event.type).lastIndexOf('reasoning-delta');
    expect(lastReasoning).toBeLessThan(firstText);
  });

  it('emits two parallel tool calls with indexes 0 and 1 and exact JSON arguments', async () => {
    const events = await run({
      type: 'chat',
      content: 'Checking both.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris', units: 'metric', days: 0, alerts: false } },
        { name: 'get_weather', arguments: { city: 'Tokyo' }, id: 'call_upstream_7' },
      ],
    });
    const calls = events.filter((event) => event.type.startsWith('tool-call'));
    expect(calls).toEqual([
      { type: 'tool-call-start', index: 0, id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Paris","units":"metric","days":0,"alerts":false}' },
      { type: 'tool-call-end', index: 0, arguments: '{"city":"Paris","units":"metric","days":0,"alerts":false}' },
      { type: 'tool-call-start', index: 1, id: 'call_upstream_7', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Tokyo"}' },
      { type: 'tool-call-end', index: 1, arguments: '{"city":"Tokyo"}' },
    ]);
    expect(lastEvent(events)).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls', raw: 'stop' } });
  });

  it('passes arguments that arrive as JSON text through unchanged', async () => {
    const events = await run({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: '{"city": "Oslo"}' }] });
    expect(events.find((event) => event.type === 'tool-call-end')).toEqual({
      type: 'tool-call-end',
      index: 0,
      arguments: '{"city": "Oslo"}',
    });
  });

  it.each([
    ['length', { unified: 'length', raw: 'length' }],
    ['load', { unified: 'other', raw: 'load' }],
    ['unload', { unified: 'other', raw: 'unload' }],
    ['something-new', { unified: 'other', raw: 'something-new' }],
  ])('maps done_reason %s', async (doneReason, reason) => {
    const events = await run({ type: 'chat', content: 'cut', doneReason });
    expect(lastEvent(events)).toMatchObject({ type: 'finish', reason });
  });

  it('ends with exactly one finish, after every other event', async () => {
    const events = await run({ type: 'chat', thinking: 'hm', content: 'ok', toolCalls: [{ name: 'get_weather', arguments: {} }] });
    expect(events.filter((event) => event.type === 'finish' || event.type === 'error')).toHaveLength(1);
    expect(lastEvent(events).type).toBe('finish');
  });
});
