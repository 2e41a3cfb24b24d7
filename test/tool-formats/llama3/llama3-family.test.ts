import { describe, expect, it } from 'vitest';
import { conversation } from '../helpers/family-contract.js';
import { documentedWeather, searchWeb } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('llama3');

testFamilyTable(format);

describe('llama3: rendering', () => {
  it('renders tools as the Llama 3.1 template does, with the family conventions after them', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'tool', name: 'get_weather' })).toMatchInlineSnapshot(`
      "Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.

      Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.

      {
          "type": "function",
          "function": {
              "name": "get_weather",
              "description": "Get the current weather for a city.",
              "parameters": {
                  "type": "object",
                  "properties": {
                      "city": {
                          "type": "string",
                          "description": "City name"
                      },
                      "unit": {
                          "type": "string",
                          "enum": [
                              "celsius",
                              "fahrenheit"
                          ]
                      }
                  },
                  "required": [
                      "city"
                  ]
              }
          }
      }

      To call several functions, write one JSON object per call, separated by "; ". When no function is needed, answer in plain text instead.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      {"name": "get_weather", "parameters": {"city": "Paris"}}
      - get_weather
      {"name": "get_weather", "parameters": {"city": "Oslo", "unit": "celsius"}}

      Function results come back to you in the user turns after your calls, one per call, as JSON objects: {"name": function name, "output": result}.

      You must call the tool "get_weather" in this reply; do not answer without calling it."
    `);
  });

  it('renders history one call and one JSON result per turn, as the template writes them', () => {
    expect(format.renderHistory(conversation).slice(2, 4)).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "Two tools.",
              "type": "reasoning",
            },
            {
              "text": "Checking.
      {"name": "get_weather", "parameters": {"city": "Oslo"}}",
              "type": "text",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "text": "{"name": "get_time", "parameters": {}}",
              "type": "text",
            },
          ],
          "role": "assistant",
        },
      ]
    `);
  });
});

describe('llama3: parsing', () => {
  it('reads <|python_tag|> calls with "parameters"', () => {
    expect(parse('<|python_tag|>{"name": "get_weather", "parameters": {"city": "Madrid"}}')).toEqual([
      call('get_weather', { city: 'Madrid' }),
    ]);
    expect(
      parse('<|python_tag|>{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_time", "parameters": {}}<|eom_id|>'),
    ).toEqual([call('get_weather', { city: 'A' }), call('get_time', {})]);
  });

  it('reads bare JSON calls, alone or separated by "; "', () => {
    expect(parse('{"name": "search_web", "parameters": {"query": "tokyo population", "max_results": 5}}')).toEqual([
      call('search_web', { query: 'tokyo population', max_results: 5 }),
    ]);
    expect(parse('{"name": "get_weather", "parameters": {"city": "A"}}; {"name": "get_weather", "parameters": {"city": "B"}}')).toEqual([
      call('get_weather', { city: 'A' }),
      call('get_weather', { city: 'B' }),
    ]);
  });

  it('reads <function_call> tags and <function=NAME> tags', () => {
    expect(parse('<function_call>\n{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</function_call>')).toEqual([
      call('get_weather', { city: 'Berlin' }),
    ]);
    expect(
      parse(
        "<function_call>{'name': 'create_event', 'arguments': {'title': 'x', 'options': {'remind': True, 'minutes': None}}}</function_call>",
      ),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true, minutes: null } })]);
    expect(parse('Checking. <function=get_weather>{"city": "Lyon"}</function> ok')).toEqual([
      { type: 'text', text: 'Checking. ' },
      call('get_weather', { city: 'Lyon' }),
      { type: 'text', text: ' ok' },
    ]);
  });

  it('reads a built-in style Python call after <|python_tag|>', () => {
    expect(parse('<|python_tag|>python(code="print(1)")')).toEqual([call('python', { code: 'print(1)' })]);
  });

  it("reads calls written in other families' syntax", () => {
    expect(parse('<tool_call>{"name": "get_time", "arguments": {}}</tool_call>')).toEqual([call('get_time', {})]);
    expect(parse('[get_weather(city="Graz")]')).toEqual([call('get_weather', { city: 'Graz' })]);
  });
});
