import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { documentedWeather, getTime } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse } = familyUnderTest('gemma4');

testFamilyTable(format);

/** A nested object, an array of objects, a nullable string and a union type, as Gemma 4's template declares them. */
const bookTrip: ToolDefinition = {
  name: 'book_trip',
  description: 'Book a trip.',
  parameters: {
    type: 'object',
    properties: {
      travellers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      options: { type: 'object', description: 'Extras.', properties: { seat: { type: 'string', enum: ['window', 'aisle'] } } },
      note: { type: ['string', 'null'], nullable: true },
    },
    required: ['travellers'],
  },
};

describe('gemma4: rendering as its chat template does', () => {
  it('declares tools in <|tool> tokens, without instructions the template does not give', () => {
    expect(format.renderTools([documentedWeather, getTime, bookTrip], { type: 'auto' })).toMatchInlineSnapshot(`
      "<|tool>declaration:get_weather{description:<|"|>Get the current weather for a city.<|"|>,parameters:{properties:{city:{description:<|"|>City name<|"|>,type:<|"|>STRING<|"|>},unit:{enum:[<|"|>celsius<|"|>,<|"|>fahrenheit<|"|>],type:<|"|>STRING<|"|>}},required:[<|"|>city<|"|>],type:<|"|>OBJECT<|"|>}}<tool|><|tool>declaration:get_time{description:<|"|>Get the current UTC time.<|"|>,parameters:{type:<|"|>OBJECT<|"|>}}<tool|><|tool>declaration:book_trip{description:<|"|>Book a trip.<|"|>,parameters:{properties:{note:{nullable:true,type:<|"|>STRING<|"|>},options:{description:<|"|>Extras.<|"|>,properties:{seat:{enum:[<|"|>window<|"|>,<|"|>aisle<|"|>],type:<|"|>STRING<|"|>}},type:<|"|>OBJECT<|"|>},travellers:{items:{properties:{name:{type:<|"|>STRING<|"|>}},required:[<|"|>name<|"|>],type:<|"|>OBJECT<|"|>},type:<|"|>ARRAY<|"|>}},required:[<|"|>travellers<|"|>],type:<|"|>OBJECT<|"|>}}<tool|>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>
      - get_weather
      <|tool_call>call:get_weather{city:<|"|>Oslo<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>"
    `);
  });

  it('keeps results that end the conversation in a user turn', () => {
    const rendered = format.renderHistory([
      { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'get_time', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: '{"utc": "10:00"}' }] },
    ]);
    expect(rendered.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '<|tool_response>response:get_time{utc:<|"|>10:00<|"|>}<tool_response|>' }],
    });
  });
});

describe('gemma4: parsing', () => {
  it('reads its own calls, and a tool_code fence as the gemma family does', () => {
    expect(parse('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>')).toEqual([
      { type: 'tool-call', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(parse('```tool_code\nget_time()\n```')).toEqual([{ type: 'tool-call', name: 'get_time', arguments: '{}' }]);
  });
});
