import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('internlm')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

testFamilyContract(format);

describe('internlm: rendering', () => {
  it('renders tools as the plugin list and a call as a plugin action', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "You can use the following plugins (tools), declared in JSON:

      [{"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}]

      To call a plugin, you may say something first, then write <|action_start|><|plugin|>, one JSON object with the plugin name and its parameters, and <|action_end|>:
      <|action_start|><|plugin|>
      {"name": "plugin_name", "parameters": {"argument": "value"}}<|action_end|>
      Write one such action per call. When no plugin is needed, answer directly.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|action_start|><|plugin|>
      {"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>
      - get_weather
      <|action_start|><|plugin|>
      {"name": "get_weather", "parameters": {"city": "Oslo", "unit": "celsius"}}<|action_end|>

      Plugin results come back to you in the next user turn as JSON objects: {"name": plugin name, "output": result}."
    `);
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|action_start|><|plugin|>
      {"name": "get_weather", "parameters": {"city": "Oslo"}}<|action_end|>
      <|action_start|><|plugin|>
      {"name": "get_time", "parameters": {}}<|action_end|>
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

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

  it('rejects unknown plugins and unreadable actions, and never surfaces a cut-off one', () => {
    const events = parse('<|action_start|><|plugin|>\n{"name": "shell", "parameters": {"cmd": "rm -rf /"}}<|action_end|>');
    expect(events).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(textOf(events)).toBe('');
    expect(parse('<|action_start|><|plugin|>search the weather<|action_end|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    const cut = '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"ci';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'internlm', text: cut, reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'internlm',
  createParser: () => format.createParser(standardTools),
  samples: ['Checking.<|action_start|><|plugin|>\n{"name": "get_time", "parameters": {}}<|action_end|>\nDone.'],
  fragments: [
    '<|action_start|>',
    '<|plugin|>',
    '<|action_start|><|plugin|>',
    '<|action_end|>',
    '<|interpreter|>',
    '{"name": "get_weather", "parameters": {"city": "Rome"}}',
    '{"name": "get_wea',
  ],
});
