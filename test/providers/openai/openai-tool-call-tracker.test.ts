/** Streamed tool-call fragments from OpenAI-compatible servers → well-formed start/delta/end events, quirks included. */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { OpenAiToolCallTracker, type ToolCallFragment } from '../../../providers/openai/openai-tool-call-tracker.js';

function run(fragments: ToolCallFragment[]): StreamEvent[] {
  const tracker = new OpenAiToolCallTracker();
  return [...fragments.flatMap((fragment) => tracker.push(fragment)), ...tracker.finish()];
}

/** Calls as an SDK would assemble them from the events, checking the lifecycle on the way. */
function calls(events: StreamEvent[]): { index: number; id: string; name: string; arguments: string }[] {
  const result: { index: number; id: string; name: string; arguments: string }[] = [];
  for (const event of events) {
    if (event.type === 'tool-call-start') {
      expect(event.index).toBe(result.length);
      result.push({ index: event.index, id: event.id, name: event.name, arguments: '' });
    } else if (event.type === 'tool-call-delta') {
      const call = result[event.index];
      if (!call) throw new Error(`delta before start for index ${event.index}`);
      call.arguments += event.argumentsDelta;
    } else if (event.type === 'tool-call-end') {
      expect(event.arguments).toBe(result[event.index]?.arguments);
    }
  }
  return result;
}

describe('OpenAiToolCallTracker', () => {
  it('assembles reference fragments of two parallel calls', () => {
    const events = run([
      { index: 0, id: 'a', function: { name: 'f', arguments: '' } },
      { index: 0, function: { arguments: '{"x"' } },
      { index: 0, function: { arguments: ':1}' } },
      { index: 1, id: 'b', function: { name: 'g', arguments: '' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    expect(calls(events)).toEqual([
      { index: 0, id: 'a', name: 'f', arguments: '{"x":1}' },
      { index: 1, id: 'b', name: 'g', arguments: '{}' },
    ]);
    expect(events.filter((event) => event.type === 'tool-call-end').map((event) => event.index)).toEqual([0, 1]);
  });

  it('holds argument text that arrives before the name, then announces the call with it', () => {
    const events = run([
      { index: 0, id: 'a', function: { arguments: '{"ci' } },
      { index: 0, function: { name: 'weather' } },
      { index: 0, function: { arguments: 'ty":"Oslo"}' } },
    ]);
    expect(events[0]).toEqual({ type: 'tool-call-start', index: 0, id: 'a', name: 'weather' });
    expect(calls(events)).toEqual([{ index: 0, id: 'a', name: 'weather', arguments: '{"city":"Oslo"}' }]);
  });

  it('serialises arguments sent as an object', () => {
    expect(calls(run([{ index: 0, id: 'a', function: { name: 'f', arguments: { x: [1, 'two'] } } }]))).toEqual([
      { index: 0, id: 'a', name: 'f', arguments: '{"x":[1,"two"]}' },
    ]);
  });

  it('ignores ids and names repeated on every fragment', () => {
    expect(
      calls(
        run([
          { index: 0, id: 'a', function: { name: 'f', arguments: '{"x":' } },
          { index: 0, id: 'a', function: { name: 'f', arguments: '1}' } },
        ]),
      ),
    ).toEqual([{ index: 0, id: 'a', name: 'f', arguments: '{"x":1}' }]);
  });

  it('tells apart parallel calls that collide on index 0 by their ids', () => {
    expect(
      calls(
        run([
          { index: 0, id: 'a', function: { name: 'f', arguments: '{"n":1}' } },
          { index: 0, id: 'b', function: { name: 'g', arguments: '{"n":' } },
          { index: 0, function: { arguments: '2}' } },
        ]),
      ),
    ).toEqual([
      { index: 0, id: 'a', name: 'f', arguments: '{"n":1}' },
      { index: 1, id: 'b', name: 'g', arguments: '{"n":2}' },
    ]);
  });

  it('renumbers upstream indexes that do not start at 0 or skip', () => {
    expect(
      calls(
        run([
          { index: 3, id: 'a', function: { name: 'f', arguments: '{}' } },
          { index: 7, id: 'b', function: { name: 'g', arguments: '{}' } },
        ]),
      ).map((call) => call.index),
    ).toEqual([0, 1]);
  });

  it('handles fragments without any index (new id = new call, no id = continuation)', () => {
    expect(
      calls(
        run([
          { id: 'a', function: { name: 'f', arguments: '{"a"' } },
          { function: { arguments: ':1}' } },
          { id: 'b', function: { name: 'g', arguments: '{}' } },
        ]),
      ),
    ).toEqual([
      { index: 0, id: 'a', name: 'f', arguments: '{"a":1}' },
      { index: 1, id: 'b', name: 'g', arguments: '{}' },
    ]);
  });

  it('mints an id for a call that has none, and gives empty arguments as {}', () => {
    const [call] = calls(run([{ index: 0, function: { name: 'f' } }]));
    expect(call?.id).toMatch(/^call_/);
    expect(call?.arguments).toBe('{}');
  });

  it('drops a call whose name never arrives, leaving no hole in the indexes', () => {
    const events = run([
      { index: 0, id: 'nameless', function: { arguments: '{}' } },
      { index: 1, id: 'b', function: { name: 'g', arguments: '{}' } },
    ]);
    expect(calls(events)).toEqual([{ index: 0, id: 'b', name: 'g', arguments: '{}' }]);
  });
});
