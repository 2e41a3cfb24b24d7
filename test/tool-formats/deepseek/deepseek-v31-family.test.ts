import { describe, expect, it } from 'vitest';
import { documentedWeather, getTime } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse } = familyUnderTest('deepseek-v31');

testFamilyTable(format);

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
