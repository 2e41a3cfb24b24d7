/** The inkling family: TML typed blocks, tool blocks `<|message_model|>NAME<|content_invoke_tool_json|>{"name", "args"}<|end_message|>`. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('inkling');

testFamilyTable(format);

const toolBlock = (name: string, args: string, header = '<|message_model|>') =>
  `${header}${name}<|content_invoke_tool_json|>{"name": "${name}", "args": ${args}}<|end_message|>`;

describe('inkling: parsing', () => {
  it('reads a turn of thinking, text and tool blocks, the first block after the template’s header', () => {
    expect(
      parse(
        `<|content_thinking|>Weather first.<|end_message|><|message_model|><|content_text|>Checking.<|end_message|>${toolBlock('get_weather', '{"city": "Paris"}')}${toolBlock('get_time', '{}')}<|content_model_end_sampling|>`,
      ),
    ).toEqual([
      { type: 'reasoning', text: 'Weather first.' },
      { type: 'text', text: 'Checking.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parse(toolBlock('search_web', '{"query": "x", "max_results": 3}', ''))).toEqual([
      call('search_web', { query: 'x', max_results: 3 }),
    ]);
  });

  it('reads nested and unicode arguments, and a block without the echo', () => {
    expect(parse(toolBlock('create_event', '{"title": "Café ☕", "options": {"remind": true}}'))).toEqual([
      call('create_event', { title: 'Café ☕', options: { remind: true } }),
    ]);
    expect(parse('<|content_invoke_tool_json|>{"name": "get_time", "args": {}}<|end_message|>')).toEqual([call('get_time', {})]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse('<|message_model|>search_web<|content_invoke_tool_json|>{"name": "search_web", "args": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });

  it('keeps block framing out of the text', () => {
    expect(parse('<|message_model|><|content_text|>Hello there.<|end_message|><|content_model_end_sampling|>')).toEqual([
      { type: 'text', text: 'Hello there.' },
    ]);
    expect(parse('<|message_model|>Hello there.')).toEqual([{ type: 'text', text: 'Hello there.' }]);
  });
});
