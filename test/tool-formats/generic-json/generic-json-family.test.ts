import { describe, expect, it } from 'vitest';
import { conversation } from '../helpers/family-contract.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('generic-json');

testFamilyTable(format);

describe('generic-json: rendering', () => {
  it('renders history with tool_response fences', () => {
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
      \`\`\`tool_call
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      \`\`\`
      \`\`\`tool_call
      {"name": "get_time", "arguments": {}}
      \`\`\`",
              "type": "text",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "text": "\`\`\`tool_response
      {"name": "get_weather", "output": "-3 C, snow"}
      \`\`\`
      \`\`\`tool_response
      {"name": "get_time", "output": "error: clock unavailable", "is_error": true}
      \`\`\`",
              "type": "text",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});

describe('generic-json: parsing', () => {
  it('reads ```tool_call fences', () => {
    expect(parse('```tool_call\n{"name": "get_time", "arguments": {}}\n```')).toEqual([call('get_time', {})]);
    expect(
      parse(
        'Two calls:\n```tool_call\n{"name": "get_time", "arguments": {}}\n```\n```tool_calls\n[{"name": "get_weather", "arguments": {"city": "Nice"}}]\n```',
      ),
    ).toEqual([
      { type: 'text', text: 'Two calls:\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Nice' }),
    ]);
  });

  it('reads ```json fences, arrays, wrappers and the OpenAI shape when they call offered tools', () => {
    expect(parse('```json\n[{"name": "get_weather", "arguments": {"city": "Nice"}}, {"name": "get_time", "arguments": {}}]\n```')).toEqual([
      call('get_weather', { city: 'Nice' }),
      call('get_time', {}),
    ]);
    expect(parse('{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}', id: 'call_1' },
    ]);
    expect(parse('{"tool_call": {"name": "get_weather", "arguments": {"city": "Oran"}}}')).toEqual([call('get_weather', { city: 'Oran' })]);
  });

  it('rejects unknown tools inside a tool_call fence', () => {
    expect(parse('Ok.\n```tool_call\n{"name": "format_disk", "arguments": {}}\n```')).toMatchObject([
      { type: 'text', text: 'Ok.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool', text: '```tool_call\n{"name": "format_disk", "arguments": {}}\n```' },
    ]);
  });
});
