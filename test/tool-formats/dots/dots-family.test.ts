import { describe, expect, it } from 'vitest';
import { getTime } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('dots');

testFamilyTable(format);

const block = (body: string) => `<dots_function_call>\n${body}\n</dots_function_call>`;

describe('dots: rendering', () => {
  it('renders the invoke format and one block per turn', () => {
    expect(format.renderTools([getTime], { type: 'auto' })).toMatchInlineSnapshot(`
      "# Tools

      You may call one or more tools to assist with the user query.

      Here are the tools available in JSONSchema format:
      <tools>
      {"type": "function", "function": {"name": "get_time", "description": "Get the current UTC time.", "parameters": {"type": "object", "properties": {}, "required": []}}}
      </tools>

      When making tool calls, use XML format to invoke tools and pass parameters, inside <dots_function_call></dots_function_call>:
      <dots_function_call>
      <invoke name="tool-name-1">
      <parameter name="param-key-1">param-value-1</parameter>
      <parameter name="param-key-2">param-value-2</parameter>
      ...
      </invoke>
      </dots_function_call>
      Write string values as they are, without quotes or escaping, and other values (numbers, booleans, arrays, objects) as JSON.

      Tool results come back to you in the next user turn, each inside <tool_response></tool_response> tags. When no tool is needed, answer directly."
    `);
  });
});

describe('dots: parsing (vLLM dots parser cases)', () => {
  it('reads invokes, values converted by the schema, text before the block', () => {
    expect(
      parse(
        `ok${block('<invoke name="search_web">\n<parameter name="query">weather in Shanghai</parameter>\n<parameter name="max_results">3</parameter>\n</invoke>')}`,
      ),
    ).toEqual([{ type: 'text', text: 'ok' }, call('search_web', { query: 'weather in Shanghai', max_results: 3 })]);
    expect(
      parse(
        block(
          '<invoke name="create_event"><parameter name="title">Sync</parameter><parameter name="options">{"remind": true}</parameter></invoke>',
        ),
      ),
    ).toEqual([call('create_event', { title: 'Sync', options: { remind: true } })]);
  });

  it('reads several invokes and blocks, unquoted names, and a JSON body', () => {
    expect(
      parse(
        `${block('<invoke name=get_time></invoke>\n<invoke name="get_weather"><parameter name="city">東京</parameter></invoke>')}${block('{"name": "get_time", "parameters": {}}')}`,
      ),
    ).toEqual([call('get_time', {}), call('get_weather', { city: '東京' }), call('get_time', {})]);
  });

  it('keeps the block close inside a value', () => {
    expect(
      parse(
        block(
          '<invoke name="write_file"><parameter name="path">a</parameter><parameter name="content"></dots_function_call> x</parameter></invoke>',
        ),
      ),
    ).toEqual([call('write_file', { path: 'a', content: '</dots_function_call> x' })]);
  });
});
