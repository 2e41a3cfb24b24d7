import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('internlm');

testFamilyTable(format);

describe('internlm: parsing', () => {
  it('reads the chat format\'s example: text, then a plugin action with "parameters"', () => {
    const reply =
      'Sure, I will search for the weather of Shanghai.<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "上海"}}<|action_end|>';
    expect(parse(reply)).toEqual([
      { type: 'text', text: 'Sure, I will search for the weather of Shanghai.' },
      call('get_weather', { city: '上海' }),
    ]);
    expect(parse('<|action_start|><|plugin|>{"name": "read_file", "arguments": {"path": "a.md", "start_line": 1}}<|action_end|>')).toEqual([
      call('read_file', { path: 'a.md', start_line: 1 }),
    ]);
  });

  it('reads the call when a server stripped the special tokens (skip_special_tokens): bare JSON on its own line', () => {
    expect(parse('Sure, I will search for the weather of Shanghai.\n{"name": "get_weather", "parameters": {"city": "Shanghai"}}')).toEqual([
      { type: 'text', text: 'Sure, I will search for the weather of Shanghai.\n' },
      call('get_weather', { city: 'Shanghai' }),
    ]);
  });

  it('leaves code-interpreter actions as text: they are not tool calls', () => {
    const reply = 'Plotting.\n<|action_start|><|interpreter|>\n```python\nprint(1)\n```<|action_end|>';
    expect(parse(reply)).toEqual([{ type: 'text', text: reply }]);
  });

  it('rejects unknown plugins and never surfaces a cut-off action', () => {
    const events = parse('<|action_start|><|plugin|>\n{"name": "shell", "parameters": {"cmd": "rm -rf /"}}<|action_end|>');
    expect(events).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(textOf(events)).toBe('');
    const cut = '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"ci';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'internlm', text: cut, reason: 'unclosed' }]);
  });
});
