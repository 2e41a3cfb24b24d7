import { describe, expect, it } from 'vitest';
import type { Message, ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getTime, getWeather, searchWeb, standardTools } from '../helpers/tools.js';
import { withoutCallIds } from './without-call-ids.js';

const format = createToolFormatRegistry().get('mistral')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown, id?: string): ParsedEvent =>
  id === undefined
    ? { type: 'tool-call', name, arguments: JSON.stringify(callArguments) }
    : { type: 'tool-call', name, arguments: JSON.stringify(callArguments), id };
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

testFamilyContract(withoutCallIds(format));

describe('mistral: rendering', () => {
  it('places the tool list before the last user turn and its instructions before the system text, as the template does', () => {
    const prompt = format.renderTools([getTime], { type: 'auto' });
    const placed = format.placeToolPrompt!(
      [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
      ],
      prompt,
    );
    expect(placed.rest).toBe('');
    expect(placed.messages[0]).toEqual({ role: 'system', content: `${prompt.slice(prompt.indexOf('\n\n') + 2)}\n\nYou are terse.` });
    expect(placed.messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Hi' }] });
    expect(placed.messages[3]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: `${prompt.slice(0, prompt.indexOf('\n\n'))}Time?` }],
    });
    expect(JSON.stringify(placed.messages[3])).toContain('[AVAILABLE_TOOLS] [{');
  });

  it('places the list before the question, not before results that end the conversation', () => {
    const prompt = format.renderTools([getTime], { type: 'auto' });
    const history = format.renderHistory([
      { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_time', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', output: '10:00' }] },
    ]);
    const placed = format.placeToolPrompt!(history, prompt).messages;
    expect(JSON.stringify(placed[1])).toMatch(/^\{"role":"user","content":\[\{"type":"text","text":"\[AVAILABLE_TOOLS\].*Time\?"\}\]\}$/);
    expect(placed[3]).toEqual(history[2]);
  });

  it('renders tools as [AVAILABLE_TOOLS] with the template wording', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "[AVAILABLE_TOOLS] [{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}, {"type": "function", "function": {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}}][/AVAILABLE_TOOLS]

      You are a helpful assistant that can call tools. If you call one or more tools, format them in a single JSON array or objects, where each object is a tool call, not as separate objects outside of an array or multiple arrays. Use the format [{"name": tool call name, "arguments": tool call arguments}, additional tool calls] if you call more than one tool. If you call tools, do not attempt to interpret them or otherwise provide a response until you receive a tool call result that you can interpret for the user.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]
      - get_weather
      [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders a call as the v0.3 array, with a 9-alphanumeric id when the call has one', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toMatchInlineSnapshot(
      `"[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]"`,
    );
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}', id: 'call_1' })).toMatchInlineSnapshot(
      `"[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "JqNCNswm3"}]"`,
    );
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}', id: 'aB3dE5gH7' })).toContain('"id": "aB3dE5gH7"');
  });

  it('renders history with one call array per turn and [TOOL_RESULTS] in the model’s turn after it', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      [TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "JqNCNswm3"}, {"name": "get_time", "arguments": {}, "id": "i39Hsn0l3"}][TOOL_RESULTS] {"content": "-3 C, snow", "call_id": "JqNCNswm3"}[/TOOL_RESULTS][TOOL_RESULTS] {"content": "Error: error: clock unavailable", "call_id": "i39Hsn0l3"}[/TOOL_RESULTS]It is -3 C and snowing.
      [user] Thanks"
    `);
  });

  it('pairs each result with its call by the same derived id, byte-stable across renderings', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'call_abcdef0123456789', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_abcdef0123456789', output: 'sunny' }] },
    ];
    const [turn, results] = format.renderHistory(messages);
    const callText = turn?.role === 'assistant' && turn.content[0]?.type === 'text' ? turn.content[0].text : '';
    const resultText = results?.role === 'user' && results.content[0]?.type === 'text' ? results.content[0].text : '';
    const id = /"id": "([A-Za-z0-9]{9})"/.exec(callText)?.[1];
    expect(id).toBeDefined();
    expect(resultText).toBe(`[TOOL_RESULTS] {"content": "sunny", "call_id": "${id}"}[/TOOL_RESULTS]`);
    expect(JSON.stringify(format.renderHistory(messages))).toBe(JSON.stringify([turn, results]));
    expect(parse(callText)).toEqual([call('get_weather', { city: 'Oslo' }, id)]);
  });
});

describe('mistral: parsing', () => {
  it('reads the v0.3 / Nemo JSON array, with ids', () => {
    expect(parse('[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Geneva"}}, {"name": "get_time", "arguments": {}}]')).toEqual([
      call('get_weather', { city: 'Geneva' }),
      call('get_time', {}),
    ]);
    expect(parse('[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Bern"}, "id": "Zx9Yw8Vu7"}]')).toEqual([
      call('get_weather', { city: 'Bern' }, 'Zx9Yw8Vu7'),
    ]);
  });

  it('reads NAME{…}, NAME[ARGS]{…} and NAME[CALL_ID]ID[ARGS]{…}, keeping the model id', () => {
    expect(parse('[TOOL_CALLS]get_weather{"city": "Lyon"}')).toEqual([call('get_weather', { city: 'Lyon' })]);
    expect(parse('[TOOL_CALLS]search_web[ARGS]{"query": "mistral le chat"}')).toEqual([call('search_web', { query: 'mistral le chat' })]);
    expect(parse('[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Nice"}')).toEqual([
      call('get_weather', { city: 'Nice' }, 'a1B2c3D4e'),
    ]);
  });

  it('reads repeated [TOOL_CALLS] as several calls, with text before and after', () => {
    expect(parse('Let me check both.\n[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}\nDone.')).toEqual([
      { type: 'text', text: 'Let me check both.\n' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
      { type: 'text', text: '\nDone.' },
    ]);
  });

  it('reads [THINK] reasoning before a call', () => {
    expect(parse('[THINK]The user wants the weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Rome"}')).toEqual([
      { type: 'reasoning', text: 'The user wants the weather.' },
      call('get_weather', { city: 'Rome' }),
    ]);
    expect(parse('<think>\nplan\n</think>\n[TOOL_CALLS]get_time{}')).toEqual([
      { type: 'reasoning', text: 'plan' },
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps unicode, nesting and markers inside strings', () => {
    expect(
      parse(
        '[TOOL_CALLS]create_event[ARGS]{"title": "Sync {weekly} 🗓️ [TOOL_CALLS]", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}',
      ),
    ).toEqual([
      call('create_event', { title: 'Sync {weekly} 🗓️ [TOOL_CALLS]', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } }),
    ]);
    expect(parse('[TOOL_CALLS][{"name": "write_file", "arguments": {"path": "naïve.txt", "content": "日本語 ]}"}}]')).toEqual([
      call('write_file', { path: 'naïve.txt', content: '日本語 ]}' }),
    ]);
  });

  it('rejects unknown tools and malformed calls, keeping their markup out of the text', () => {
    const unknown = parse('Sure.[TOOL_CALLS]delete_all_files[ARGS]{"force": true}');
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
    expect(parse('[TOOL_CALLS]get_weather{"city": "Paris" "unit"}')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse('[TOOL_CALLS][{"city": "Paris"}]')).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    expect(parse('[TOOL_CALLS]I cannot call tools for that.')).toEqual([
      {
        type: 'tool-call-rejected',
        code: 'invalid_tool_syntax',
        message: expect.any(String),
        text: '[TOOL_CALLS]I cannot call tools for that.',
      },
    ]);
  });

  it('reports cut-off calls as unparsed, never as calls', () => {
    expect(parse('Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Par')).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call-unparsed', format: 'mistral', text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Par', reason: 'unclosed' },
    ]);
    expect(parse('[TOOL_CALLS]get_wea')).toEqual([
      { type: 'tool-call-unparsed', format: 'mistral', text: '[TOOL_CALLS]get_wea', reason: 'unclosed' },
    ]);
    expect(parse('[TOOL_CALLS][{"name": "get_time", "argu')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });

  it('keeps JSON answers and bracketed prose as text', () => {
    for (const text of ['[{"name": "Alice", "age": 31}]', 'See [1] and [TOOL] or [ARGS] in the docs.', '```json\n{"name": "Alice"}\n```']) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('only makes calls to the tools of the request', () => {
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), '[TOOL_CALLS]search_web[ARGS]{"query": "x"}')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'mistral',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Let me check.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "aB3dE5gH7"}]\nDone.',
    '[THINK]\nplan [TOOL_CALLS]\n[/THINK][TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "[/THINK] }"}[TOOL_CALLS]get_time{}',
    '[TOOL_CALLS][TOOL_CALLS]search_web[ARGS]{"query": "q"} and [TOOL_CALLS]nope[ARGS]{}[TOOL_CALLS]oops, [TOOL_CALLS]get_time[ARGS]{"a": ',
  ],
  fragments: [
    '[TOOL_CALLS]',
    '[ARGS]',
    '[CALL_ID]',
    '[THINK]',
    '[/THINK]',
    'get_weather',
    '{"city": "Rome"}',
    '[{"name": "get_time", "arguments": {}}]',
    '[TOOL_CALLS]get_weather[ARGS]{"city": "a [TOOL_CALLS] b"}',
    '[TOOL_CALLS]delete_all[ARGS]{}',
    '[TOOL_CALLS]get_time[CALL_ID]Zx9Yw8Vu7[ARGS]{}',
  ],
});
