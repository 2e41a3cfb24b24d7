/** The rwkv family: `**Tool Call:**` and a ```json fence holding one call. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('rwkv')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const toolCall = (json: string, gap = '\n') => `**Tool Call:**${gap}\`\`\`json\n${json}\n\`\`\``;

testFamilyContract(format);

describe('rwkv: rendering', () => {
  it('renders history with one marked fence per call and Hermes’ tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      **Tool Call:**
      \`\`\`json
      {"name": "get_weather", "arguments": {"city": "Oslo"}}
      \`\`\`
      **Tool Call:**
      \`\`\`json
      {"name": "get_time", "arguments": {}}
      \`\`\`
      [user] <tool_response>
      -3 C, snow
      </tool_response>
      <tool_response>
      Error: error: clock unavailable
      </tool_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

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

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed calls', () => {
    expect(parse('**Tool Call:**\n```json\n{"name": "search_web", "arguments": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(toolCall('{"name": "delete_all_files", "arguments": {}}'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(toolCall('get_weather(city="Paris")'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose and other bold headings as text and only calls the request’s tools', () => {
    for (const text of ['**Tool Call:** none needed.', '**Answer:**\n```json\n{"a": 1}\n```'])
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), toolCall('{"name": "search_web", "arguments": {"query": "x"}}')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'rwkv',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<think>maybe ${toolCall('{"name": "get_time", "arguments": {}}')}</think>${toolCall('{"name": "get_weather", "arguments": {"city": "Paris"}}')} ok`,
    `${toolCall('{"name": "nope", "arguments": {}}')}**Tool Call:**\n\`\`\`json\n{"name": "get_ti`,
  ],
  fragments: ['**Tool Call:**', '```json', '```', '\n', '{"name": "get_time", "arguments": {}}', '**'],
});
