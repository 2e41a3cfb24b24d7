import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('command-r')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const action = (json: string) => 'Action: ```json\n' + json + '\n```';

testFamilyContract(format);

describe('command-r: rendering', () => {
  it('renders tools as the template’s Python signatures and its Action instructions', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "## Available Tools
      Here is a list of tools that you have available to you:

      \`\`\`python
      def get_weather(city: str, unit: str) -> List[Dict]:
          """Get the current weather for a city.

          Args:
              city (str): City name
              unit (str):
          """
          pass
      \`\`\`

      \`\`\`python
      def search_web(query: str, max_results: int) -> List[Dict]:
          """Search the web and return the top results.

          Args:
              query (str):
              max_results (int):
          """
          pass
      \`\`\`

      Write 'Action:' followed by a json-formatted list of actions that you want to perform in order to produce a good response to the user's last input. You can use any of the supplied tools any number of times, but you should aim to execute the minimum number of necessary actions for the input. Answer directly, without an action, if calling the tools is unnecessary. The list of actions you want to call should be formatted as a list of json objects, for example:
      \`\`\`json
      [
          {
              "tool_name": title of the tool in the specification,
              "parameters": a dict of parameters to input into the tool as they are defined in the specs, or {} if it takes no parameters
          }
      ]\`\`\`

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      Action: \`\`\`json
      [
          {
              "tool_name": "get_weather",
              "parameters": {
                  "city": "Paris"
              }
          }
      ]
      \`\`\`
      - get_weather
      Action: \`\`\`json
      [
          {
              "tool_name": "get_weather",
              "parameters": {
                  "city": "Oslo",
                  "unit": "celsius"
              }
          }
      ]
      \`\`\`

      Tool results come back to you in the next user turn as JSON objects: {"name": tool name, "output": result}."
    `);
  });

  it('renders history with one action per turn', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      Action: \`\`\`json
      [
          {
              "tool_name": "get_weather",
              "parameters": {
                  "city": "Oslo"
              }
          },
          {
              "tool_name": "get_time",
              "parameters": {}
          }
      ]
      \`\`\`
      [user] {"name": "get_weather", "output": "-3 C, snow"}
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('command-r: parsing', () => {
  it('reads an action list, also with the fence on its own line', () => {
    const list = '[\n    {\n        "tool_name": "get_weather",\n        "parameters": {"city": "Paris"}\n    }\n]';
    expect(parse(action(list))).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Action:\n```json\n' + list + '\n```')).toEqual([call('get_weather', { city: 'Paris' })]);
  });

  it('reads several actions, nested and unicode parameters, and fences inside strings', () => {
    expect(
      parse(action('[{"tool_name": "get_time", "parameters": {}}, {"tool_name": "search_web", "parameters": {"query": "Köln"}}]')),
    ).toEqual([call('get_time', {}), call('search_web', { query: 'Köln' })]);
    expect(parse(action('[{"tool_name": "write_file", "parameters": {"path": "a.md", "content": "```py\\nx\\n```"}}]'))).toEqual([
      call('write_file', { path: 'a.md', content: '```py\nx\n```' }),
    ]);
  });

  it('reports a cut-off action as unparsed and rejects unknown tools, such as the template’s directly_answer', () => {
    expect(parse('Action: ```json\n[{"tool_name": "search_web", "parameters": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'command-r', reason: 'unclosed' },
    ]);
    expect(parse(action('[{"tool_name": "directly_answer", "parameters": {}}]'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(action('I will search the web'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose and JSON answers as text, and only calls the request’s tools', () => {
    for (const text of ['Action: none needed.', '```json\n{"name": "Alice", "age": 31}\n```'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), action('[{"tool_name": "search_web", "parameters": {}}]')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'command-r',
  createParser: () => format.createParser(standardTools),
  samples: [
    `Let me look.\n${action('[{"tool_name": "get_weather", "parameters": {"city": "Oslo"}}]')}`,
    action('[{"tool_name": "write_file", "parameters": {"path": "a", "content": "``` Action: ```json"}}]'),
    `${action('[{"tool_name": "nope", "parameters": {}}]')}\nAction: \`\`\`json\n[{"tool_na`,
  ],
  fragments: [
    'Action: ```json',
    'Action:\n```json',
    '```',
    '\n',
    '[{"tool_name": "get_time", "parameters": {}}]',
    action('[{"tool_name": "get_weather", "parameters": {"city": "Rome"}}]'),
  ],
});
