import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getTime, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('deepseek-v31')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);

testFamilyContract(format);

describe('deepseek-v31: rendering as V3.1 writes calls', () => {
  it("lists tools as the model card does and asks for V3.1's call form", () => {
    expect(format.renderTools([documentedWeather, getTime], { type: 'auto' })).toMatchInlineSnapshot(`
      "## Tools
      You have access to the following tools:

      ### get_weather
      Description: Get the current weather for a city.

      Parameters: {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}

      ### get_time
      Description: Get the current UTC time.

      Parameters: {"type": "object", "properties": {}, "required": []}

      IMPORTANT: ALWAYS adhere to this exact format for tool use:
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>

      Where:

      - \`tool_call_name\` must be an exact match to one of the available tools
      - \`tool_call_arguments\` must be valid JSON that strictly follows the tool's Parameters Schema
      - For multiple tool calls, chain them directly without separators or spaces

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>
      - get_weather
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Oslo", "unit": "celsius"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>

      Tool results follow your calls, each between <｜tool▁output▁begin｜> and <｜tool▁output▁end｜>. When no tool is needed, answer directly."
    `);
  });

  it('writes calls without type or fence, and results inside the turn that made the calls', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜tool▁output▁begin｜>-3 C, snow<｜tool▁output▁end｜><｜tool▁output▁begin｜>Error: error: clock unavailable<｜tool▁output▁end｜>It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('deepseek-v31: parsing', () => {
  it('reads the V3.1 form and the V3 form', () => {
    expect(parse('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}' },
    ]);
    expect(
      parse(
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ),
    ).toEqual([{ type: 'tool-call', name: 'get_time', arguments: '{}' }]);
  });
});

testChunkingInvariance({
  name: 'deepseek-v31',
  createParser: () => format.createParser(standardTools),
  samples: [
    'Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
  ],
  fragments: [
    '<｜tool▁calls▁begin｜>',
    '<｜tool▁call▁begin｜>',
    'get_time<｜tool▁sep｜>{}',
    '<｜tool▁call▁end｜>',
    '<｜tool▁calls▁end｜>',
    '</think>',
  ],
});
