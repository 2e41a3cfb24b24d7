import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('kimi-k2');

testFamilyTable(format);

const kimiCall = (header: string, json: string) => `<|tool_call_begin|>${header}<|tool_call_argument_begin|>${json}<|tool_call_end|>`;
const section = (...calls: string[]) => `<|tool_calls_section_begin|>${calls.join('')}<|tool_calls_section_end|>`;

// The contract compares calls without ids; Kimi's header is always the call's id (checked below).

describe('kimi-k2: rendering', () => {
  it('renders a call in a section, keeping a Kimi id', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{}', id: 'functions.get_weather:7' })).toContain(
      '<|tool_call_begin|>functions.get_weather:7<|tool_call_argument_begin|>',
    );
  });

  it('numbers calls across turns, keeps model-given ids, and pairs each result, in a turn of its own, with its call', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', output: 'sunny' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'functions.search_web:1', name: 'search_web', arguments: '{"query":"q"}' },
          { type: 'tool-call', id: 'call_c', name: 'get_time', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_c', output: '12:00' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'functions.search_web:1', output: 'found' }] },
    ];
    const rendered = format
      .renderHistory(messages)
      .map((message) => (message.role !== 'system' && message.content[0]?.type === 'text' ? message.content[0].text : ''));
    expect(rendered).toEqual([
      section(kimiCall('functions.get_weather:0', '{"city": "Oslo"}')),
      '## Return of functions.get_weather:0\nsunny',
      section(kimiCall('functions.search_web:1', '{"query": "q"}'), kimiCall('functions.get_time:2', '{}')),
      '## Return of functions.get_time:2\n12:00',
      '## Return of functions.search_web:1\nfound',
    ]);
    expect(JSON.stringify(format.renderHistory(messages))).toBe(JSON.stringify(format.renderHistory(messages)));
    expect(parse(rendered[2] as string)).toEqual([
      call('search_web', { query: 'q' }, 'functions.search_web:1'),
      call('get_time', {}, 'functions.get_time:2'),
    ]);
  });
});

describe('kimi-k2: parsing', () => {
  it('reads a section, with the header as the call id', () => {
    expect(
      parse(
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Osaka"}<|tool_call_end|><|tool_calls_section_end|>',
      ),
    ).toEqual([call('get_weather', { city: 'Osaka' }, 'functions.get_weather:0')]);
  });

  it('reads several calls of one section, with text before them', () => {
    expect(
      parse(
        `I will check both.\n${section(kimiCall('functions.get_weather:0', '{"city": "Kyoto"}'), kimiCall('functions.get_time:1', '{}'))}`,
      ),
    ).toEqual([
      { type: 'text', text: 'I will check both.\n' },
      call('get_weather', { city: 'Kyoto' }, 'functions.get_weather:0'),
      call('get_time', {}, 'functions.get_time:1'),
    ]);
  });

  it('takes a header without an index as a name only', () => {
    expect(parse(section(kimiCall('get_weather', '{"city": "Nara"}')))).toEqual([call('get_weather', { city: 'Nara' })]);
    expect(parse(section(kimiCall('get_weather:3', '{"city": "Nara"}')))).toEqual([call('get_weather', { city: 'Nara' }, 'get_weather:3')]);
  });

  it('reads <think> reasoning, and a section or call that K2 Thinking opens before </think>', () => {
    expect(parse(`<think>\nNeed the weather.\n</think>\n${section(kimiCall('functions.get_weather:0', '{"city": "Kobe"}'))}`)).toEqual([
      { type: 'reasoning', text: 'Need the weather.' },
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Kobe' }, 'functions.get_weather:0'),
    ]);
    expect(parse(`<think>Need the weather.\n${section(kimiCall('functions.get_weather:0', '{"city": "Kobe"}'))}`)).toEqual([
      { type: 'reasoning', text: 'Need the weather.' },
      call('get_weather', { city: 'Kobe' }, 'functions.get_weather:0'),
    ]);
    expect(parse(`<think>Let me call ${kimiCall('functions.get_time:0', '{}')}<|tool_calls_section_end|>`)).toEqual([
      { type: 'reasoning', text: 'Let me call ' },
      call('get_time', {}, 'functions.get_time:0'),
    ]);
    expect(parse(`Thinking already.${section(kimiCall('functions.get_time:0', '{}'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Thinking already.' },
      call('get_time', {}, 'functions.get_time:0'),
    ]);
  });

  it('reads calls written without the section markers', () => {
    expect(parse(`${kimiCall('functions.get_weather:0', '{"city": "Sapporo"}')}\n${kimiCall('functions.get_time:1', '{}')}`)).toEqual([
      call('get_weather', { city: 'Sapporo' }, 'functions.get_weather:0'),
      { type: 'text', text: '\n' },
      call('get_time', {}, 'functions.get_time:1'),
    ]);
  });

  it('keeps unicode, nesting and markers inside strings', () => {
    expect(
      parse(
        section(
          kimiCall(
            'functions.create_event:0',
            '{"title": "Sync {weekly} 🗓️ 会議", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}',
          ),
        ),
      ),
    ).toEqual([
      call(
        'create_event',
        { title: 'Sync {weekly} 🗓️ 会議', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } },
        'functions.create_event:0',
      ),
    ]);
  });

  it('reads the complete calls of a section whose end never came', () => {
    expect(parse(`<|tool_calls_section_begin|>${kimiCall('functions.get_time:0', '{}')}`)).toEqual([
      call('get_time', {}, 'functions.get_time:0'),
    ]);
  });

  it('reports a cut-off call as unparsed, never as a call', () => {
    const cut = '<|tool_calls_section_begin|><|tool_call_begin|>functions.search_web:0<|tool_call_argument_begin|>{"query": "tok';
    expect(parse(`Searching.\n${cut}`)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'kimi-k2', text: cut, reason: 'unclosed' },
    ]);
    expect(parse('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_wea')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    const unknown = parse(`Sure.\n${section(kimiCall('functions.delete_all_files:0', '{}'))}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
  });
});

describe('kimi-k2: a reply that begins inside reasoning', () => {
  // The template opened the block; Kimi-VL's thinking models close it with ◁/think▷ instead of </think>.
  it.each(['</think>', '◁/think▷'])('ends the opened block at %s, streamed or not, and reads the call after it', (close) => {
    const events = parse(`Plan it.\n${close}\n${section(kimiCall('functions.get_time:0', '{}'))}`, { startsInReasoning: true });
    expect(events).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'text', text: '\n' },
      call('get_time', {}, 'functions.get_time:0'),
    ]);
  });

  it('leaves no trace of an empty opened block closed with ◁/think▷', () => {
    expect(parse('◁/think▷It is noon.', { startsInReasoning: true })).toEqual([{ type: 'text', text: 'It is noon.' }]);
    const parser = () => format.createParser([], { startsInReasoning: true });
    expect(expectChunkingInvariant(parser, 'Plan.◁/think▷Noon.')).toEqual([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: 'Noon.' },
    ]);
  });
});

describe('kimi-k2: the section end token inside the arguments', () => {
  // The arguments are JSON: a value quoting the syntax holds the tokens as text.
  it('keeps a section end inside a string, streamed or not, and reads the call after it', () => {
    const value = 'a <|tool_calls_section_end|> b <|tool_call_end|>';
    const events = parse(
      `${section(kimiCall('functions.search_web:0', JSON.stringify({ query: value })), kimiCall('functions.get_time:1', '{}'))} Done.`,
    );
    expect(events).toEqual([
      call('search_web', { query: value }, 'functions.search_web:0'),
      call('get_time', {}, 'functions.get_time:1'),
      { type: 'text', text: ' Done.' },
    ]);
  });

  it('keeps a call end inside a string of a call written without its section', () => {
    expect(parse(kimiCall('functions.search_web:0', '{"query": "<|tool_call_end|>"}'))).toEqual([
      call('search_web', { query: '<|tool_call_end|>' }, 'functions.search_web:0'),
    ]);
  });

  it('still ends the section at its token outside a string when the object is left open (repaired)', () => {
    const events = parse(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.search_web:0<|tool_call_argument_begin|>{"query": "a"<|tool_calls_section_end|> Sorry.',
    );
    expect(events).toEqual([call('search_web', { query: 'a' }, 'functions.search_web:0'), { type: 'text', text: ' Sorry.' }]);
  });
});
