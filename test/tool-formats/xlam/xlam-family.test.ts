import { describe, expect, it } from 'vitest';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { getWeather, searchWeb } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('xlam');

testFamilyTable(format);

const weatherInParis = '{"name": "get_weather", "arguments": {"city": "Paris"}}';

describe('xlam: rendering', () => {
  it('renders the tools with the xLAM format instruction', () => {
    expect(format.renderTools([searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "You have access to a set of tools. When using tools, make calls in a single JSON array: 

      [{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... (additional parallel tool calls as needed)]

      If no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:

      {
          "type": "function",
          "function": {
              "name": "search_web",
              "description": "Search the web and return the top results.",
              "parameters": {
                  "type": "object",
                  "properties": {
                      "query": {
                          "type": "string"
                      },
                      "max_results": {
                          "type": "integer",
                          "minimum": 1,
                          "maximum": 20
                      }
                  },
                  "required": [
                      "query"
                  ]
              }
          }
      }

      Write the JSON array alone, with nothing before or after it, when you call tools.

      Tool results come back to you in the next user turn as JSON objects: {"name": tool name, "output": result}.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });
});

describe("xlam: parsing (the forms vLLM's xlam parser accepts)", () => {
  it('reads a bare array of calls', () => {
    expect(parse(`[${weatherInParis}, {"name": "get_time", "arguments": {}}]`)).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
  });

  it('reads the array after reasoning, in a json fence, after [TOOL_CALLS] and in <tool_call> tags', () => {
    expect(parse(`<think>The user wants weather.</think>\n[${weatherInParis}]`)).toEqual([
      { type: 'reasoning', text: 'The user wants weather.' },
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Paris' }),
    ]);
    expect(parse('```json\n[' + weatherInParis + ']\n```')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse(`[TOOL_CALLS][${weatherInParis}]`)).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse(`<tool_call>[${weatherInParis}]</tool_call>`)).toEqual([call('get_weather', { city: 'Paris' })]);
  });

  it('reads an array on its own line after text', () => {
    expect(parse(`I will look it up.\n[${weatherInParis}]`)).toEqual([
      { type: 'text', text: 'I will look it up.\n' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('keeps unicode and nested arguments', () => {
    expect(
      parse(
        '[{"name": "create_event", "arguments": {"title": "Réunion [hebdo] 🗓️", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}}]',
      ),
    ).toEqual([call('create_event', { title: 'Réunion [hebdo] 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
  });

  it('keeps JSON answers and arrays naming no offered tool as text', () => {
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), '[{"name": "get_time", "arguments": {}}]')).toEqual([
      { type: 'text', text: '[{"name": "get_time", "arguments": {}}]' },
    ]);
  });

  it('reports an array cut off inside a call as unparsed', () => {
    expect(parse('[{"name": "get_weather", "arguments": {"city": "Par')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});
