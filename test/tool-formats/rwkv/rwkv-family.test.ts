/** The rwkv family: `**Tool Call:**` and a ```json fence holding one call. */
import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('rwkv');

testFamilyTable(format);

const toolCall = (json: string, gap = '\n') => `**Tool Call:**${gap}\`\`\`json\n${json}\n\`\`\``;

describe('rwkv: parsing', () => {
  it('reads text then several calls, whatever the gap between marker and fence', () => {
    expect(
      parse(
        `Let me check.\n\n${toolCall('{"name": "get_weather", "arguments": {"city": "Paris"}}')}\n${toolCall('{"name": "get_time", "arguments": {}}', ' ')}\n${toolCall('{"name": "search_web", "arguments": {"query": "x"}}', '\n\n')}`,
      ),
    ).toEqual([
      { type: 'text', text: 'Let me check.\n\n' },
      call('get_weather', { city: 'Paris' }),
      { type: 'text', text: '\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
      call('search_web', { query: 'x' }),
    ]);
  });

  it('reads nested and unicode arguments, and arguments written as a JSON string', () => {
    expect(parse(toolCall('{"name": "create_event", "arguments": {"title": "Café ☕", "options": {"remind": true}}}'))).toEqual([
      call('create_event', { title: 'Café ☕', options: { remind: true } }),
    ]);
    expect(parse(toolCall('{"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}'))).toEqual([
      call('get_weather', { city: 'Oslo' }),
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse('**Tool Call:**\n```json\n{"name": "search_web", "arguments": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
  });
});
