import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('pythonic')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('pythonic: rendering', () => {
  it('renders tools in the Llama 3.2 pythonic style', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "You are an expert in composing functions. You are given a question and a set of possible functions.
      Based on the question, you will need to make one or more function/tool calls to achieve the purpose.
      If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.

      If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]
      You SHOULD NOT include any other text in the response when you call functions.

      Here is a list of functions in JSON format that you can invoke.

      [
          {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}},
          {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}}
      ]

      Write argument values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts. Name every argument (params_name=value).

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      [get_weather(city="Paris")]
      - get_weather
      [get_weather(city="Oslo", unit="celsius")]

      Function results come back to you in the next user turn as JSON objects: {"name": function name, "output": result}."
    `);
  });

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

  it('keeps lists, links and unknown functions as text', () => {
    for (const text of [
      '[1, 2, 3]',
      '[docs](http://x.io)',
      '[delete_everything(now=True)]',
      '[get_weather is a tool]',
      '[get_weather(city=unquoted)] x',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('rejects unknown tools and reports cut-off lists inside markers', () => {
    expect(parse('<|tool_call_start|>[nope()]<|tool_call_end|>')).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('<|tool_call_start|>[get_weather(city="Pa')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'pythonic', reason: 'unclosed' },
    ]);
    expect(parse('[get_weather(city="Pa')).toMatchObject([{ type: 'tool-call-unparsed', format: 'pythonic', reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'pythonic',
  createParser: () => format.createParser(standardTools),
  samples: [
    '[get_weather(city="Paris"), get_time()]',
    'Let me see.<|tool_call_start|>[get_weather(city="Paris, ]"), get_time(tz=\'UTC\')]<|tool_call_end|>Checking.',
    '[1] First point, [get_time()] second.',
  ],
  fragments: [
    '[get_weather(city="Rome")]',
    '[get_time()]',
    '<|python_start|>',
    '<|python_end|>',
    '<|tool_call_start|>',
    '<|tool_call_end|>',
    "[write_file(path='x', content='it''s ]')]",
    '[nope(a=1)]',
  ],
});
