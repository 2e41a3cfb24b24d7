import { describe, expect, it } from 'vitest';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('pythonic');

testFamilyTable(format);

describe('pythonic: rendering', () => {
  it('renders one call as a Python list', () => {
    expect(
      format.renderCall({ name: 'create_event', arguments: '{"title":"A \\"B\\"","options":{"remind":true,"minutes":null},"from":1}' }),
    ).toMatchInlineSnapshot(`"[create_event(title="A \\"B\\"", options={"remind": True, "minutes": None}, **{"from": 1})]"`);
  });
});

describe('pythonic: parsing', () => {
  it('reads a bare list of calls', () => {
    expect(parse('[get_weather(city="Paris"), get_time()]')).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {})]);
    expect(parse("[create_event(title='Q3 review', attendees=['a@x.io'], options={'remind': True, 'minutes': 15})]")).toEqual([
      call('create_event', { title: 'Q3 review', attendees: ['a@x.io'], options: { remind: true, minutes: 15 } }),
    ]);
  });

  it('reads <|python_start|> and LFM2 <|tool_call_start|> blocks', () => {
    expect(parse('<|python_start|>[get_weather(city="Paris")]<|python_end|>')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Let me see.<|tool_call_start|>[get_weather(city="Paris"), get_time(tz="UTC")]<|tool_call_end|>Checking.')).toEqual([
      { type: 'text', text: 'Let me see.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', { tz: 'UTC' }),
      { type: 'text', text: 'Checking.' },
    ]);
    expect(parse('<|tool_call_start|>[{"name": "get_time", "arguments": {}}]<|tool_call_end|>')).toEqual([call('get_time', {})]);
  });

  it('maps a positional argument only when the tool has exactly one parameter', () => {
    expect(parse('[python("print(1)")]')).toEqual([call('python', { code: 'print(1)' })]);
    expect(parse('<|python_start|>[get_weather("Paris")]<|python_end|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.stringContaining('Positional') },
    ]);
  });

  it('maps a positional argument to a single parameter named like an Object.prototype member', () => {
    const tools = [
      { name: 'show', description: 'Shows a value.', parameters: { type: 'object', properties: { toString: { type: 'string' } } } },
    ];
    const events = expectChunkingInvariant(() => format.createParser(tools), '[show("x")]');
    expect(events).toEqual([call('show', { toString: 'x' })]);
  });

  it('keeps markers inside Python strings, single or triple quoted', () => {
    expect(parse(`<|python_start|>[write_file(path='a', content='<|python_end|> ]')]<|python_end|>`)).toEqual([
      call('write_file', { path: 'a', content: '<|python_end|> ]' }),
    ]);
    expect(parse('[write_file(path="a", content="""x\n]\n""")]')).toEqual([call('write_file', { path: 'a', content: 'x\n]\n' })]);
  });
});
