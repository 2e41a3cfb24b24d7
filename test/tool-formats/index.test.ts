import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

describe('createToolFormatRegistry', () => {
  it('maps each phase-1 family id to its ToolFormat', () => {
    const registry = createToolFormatRegistry();
    expect([...registry.keys()].sort()).toEqual(['generic-json', 'hermes', 'llama3', 'pythonic']);
    for (const [family, format] of registry) expect(format.family).toBe(family);
  });

  it('builds independent parsers', () => {
    const format = createToolFormatRegistry().get('hermes')!;
    const tools = [{ name: 'get_time', parameters: {} }];
    const first = format.createParser(tools);
    const second = format.createParser(tools);
    first.push('<tool_call>{"name": "get_time"');
    expect(second.push('hello')).toEqual([{ type: 'text', text: 'hello' }]);
    expect(first.push('}</tool_call>')).toEqual([{ type: 'tool-call', name: 'get_time', arguments: '{}' }]);
  });
});
