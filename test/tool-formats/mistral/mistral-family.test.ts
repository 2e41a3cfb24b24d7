import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { getTime } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('mistral');

testFamilyTable(format);

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

  it('renders a call as the v0.3 array, with a 9-alphanumeric id when the call has one', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}', id: 'call_1' })).toMatchInlineSnapshot(
      `"[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "JqNCNswm3"}]"`,
    );
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}', id: 'aB3dE5gH7' })).toContain('"id": "aB3dE5gH7"');
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
});
