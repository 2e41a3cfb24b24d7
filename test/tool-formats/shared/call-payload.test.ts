import { describe, expect, it } from 'vitest';
import { normalizeCallArguments } from '../../../tool-formats/shared/call-arguments.js';
import { normalizeCallPayload } from '../../../tool-formats/shared/call-payload.js';

describe('normalizeCallPayload', () => {
  it.each([
    ['name + arguments', { name: 'a', arguments: { x: 1 } }, { name: 'a', arguments: { x: 1 } }],
    ['name + parameters (Llama)', { name: 'a', parameters: { x: 1 } }, { name: 'a', arguments: { x: 1 } }],
    ['name + params', { name: 'a', params: { x: 1 } }, { name: 'a', arguments: { x: 1 } }],
    ['name + input (Anthropic)', { name: 'a', input: { x: 1 } }, { name: 'a', arguments: { x: 1 } }],
    ['arguments as a JSON string', { name: 'a', arguments: '{"x": 1}' }, { name: 'a', arguments: '{"x": 1}' }],
    ['a name alone', { name: 'get_time' }, { name: 'get_time', arguments: {} }],
    ['function as the name key', { function: 'a', arguments: {} }, { name: 'a', arguments: {} }],
    ['an id', { name: 'a', arguments: {}, id: 'call_1' }, { name: 'a', arguments: {}, id: 'call_1' }],
  ])('reads %s', (_name, payload, expected) => {
    expect(normalizeCallPayload(payload, 'exact')).toEqual([{ type: 'call', ...expected }]);
  });

  it('reads the OpenAI shape with its id', () => {
    const payload = { id: 'call_9', type: 'function', function: { name: 'a', arguments: '{"x":1}' } };
    expect(normalizeCallPayload(payload, 'exact')).toEqual([{ type: 'call', name: 'a', arguments: '{"x":1}', id: 'call_9' }]);
  });

  it('reads arrays, tool_calls wrappers and the llama.cpp generic tool_call wrapper', () => {
    const calls = [
      { type: 'call', name: 'a', arguments: {} },
      { type: 'call', name: 'b', arguments: { x: 1 } },
    ];
    const list = [
      { name: 'a', arguments: {} },
      { name: 'b', arguments: { x: 1 } },
    ];
    expect(normalizeCallPayload(list, 'exact')).toEqual(calls);
    expect(normalizeCallPayload({ tool_calls: list }, 'exact')).toEqual(calls);
    expect(normalizeCallPayload({ tool_call: { name: 'a', arguments: {} } }, 'exact')).toEqual([calls[0]]);
  });

  it('unwraps a call wrapped twice, keeping sibling keys', () => {
    const payload = { name: 'w', arguments: { name: 'w', arguments: { content: 'hi' }, file_path: 'a.py' } };
    expect(normalizeCallPayload(payload, 'lenient')).toEqual([
      { type: 'call', name: 'w', arguments: { file_path: 'a.py', content: 'hi' } },
    ]);
  });

  it('takes flattened arguments inside an envelope but not in bare JSON', () => {
    const payload = { name: 'get_weather', city: 'Paris' };
    expect(normalizeCallPayload(payload, 'lenient')).toEqual([{ type: 'call', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(normalizeCallPayload(payload, 'exact')).toBeUndefined();
  });

  it('says a JSON answer is not a call', () => {
    expect(normalizeCallPayload({ name: 'Alice', age: 31 }, 'exact')).toBeUndefined();
    expect(normalizeCallPayload({ answer: 42 }, 'lenient')).toBeUndefined();
    expect(normalizeCallPayload([], 'lenient')).toBeUndefined();
    expect(normalizeCallPayload('a', 'lenient')).toBeUndefined();
    expect(normalizeCallPayload([{ name: 'a' }, 3], 'exact')).toBeUndefined();
    expect(normalizeCallPayload([{ name: 'a' }, 3], 'lenient')).toEqual([
      { type: 'call', name: 'a', arguments: {} },
      { type: 'invalid', message: expect.stringContaining('not a tool call') },
    ]);
  });
});

describe('normalizeCallArguments', () => {
  it('accepts objects, JSON text (leniently) and nothing', () => {
    expect(normalizeCallArguments({ x: 1 })).toEqual({ type: 'object', value: { x: 1 } });
    expect(normalizeCallArguments("{'x': True}")).toEqual({ type: 'object', value: { x: true } });
    expect(normalizeCallArguments('')).toEqual({ type: 'object', value: {} });
    expect(normalizeCallArguments(undefined)).toEqual({ type: 'object', value: {} });
    expect(normalizeCallArguments(null)).toEqual({ type: 'object', value: {} });
  });

  it('refuses arrays, scalars and text that is not an object', () => {
    expect(normalizeCallArguments([1]).type).toBe('error');
    expect(normalizeCallArguments(5).type).toBe('error');
    expect(normalizeCallArguments('not valid json').type).toBe('error');
    expect(normalizeCallArguments('[1]').type).toBe('error');
  });
});
