/** The cwm family: `<tool: LABEL>\nNAME input\n</tool>` blocks, the input JSON or one command. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('cwm')!;
const bash: ToolDefinition = {
  name: 'bash',
  description: 'Run a shell command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const tools = [...standardTools, bash];
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(tools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('cwm: rendering', () => {
  it('renders history with one block per call and Hermes’ tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <tool: function>
      get_weather
      {"city": "Oslo"}
      </tool>
      <tool: function>
      get_time
      {}
      </tool>
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

  it('writes a command-only call as its command, so it reads back the same', () => {
    const rendered = format.renderCall({ name: 'bash', arguments: '{"command":"grep -rn \\"def bulk_create\\" ."}' });
    expect(rendered).toBe('<tool: function>\nbash grep -rn "def bulk_create" .\n</tool>');
    expect(parse(rendered)).toEqual([call('bash', { command: 'grep -rn "def bulk_create" .' })]);
  });
});

describe('cwm: parsing', () => {
  it('reads reasoning, text and several blocks, commands and JSON inputs', () => {
    expect(
      parse(
        '<think>Find it.</think>Searching.\n<tool: function>\nbash find . -name "*.py" | xargs grep -n "def bulk_create"\n</tool>\n<tool: function>\nget_weather {"city": "Paris"}\n</tool>',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'Find it.' },
      { type: 'text', text: 'Searching.\n' },
      call('bash', { command: 'find . -name "*.py" | xargs grep -n "def bulk_create"' }),
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('keeps a multi-line command as written and reads a call without input', () => {
    expect(parse('<tool: bash>\nbash\ncd src\nls -la\n</tool>')).toEqual([call('bash', { command: 'cd src\nls -la' })]);
    expect(parse('<tool: function>\nget_time\n</tool>')).toEqual([call('get_time', { command: '' })]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed blocks', () => {
    expect(parse('<tool: function>\nbash ls -')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    expect(parse('<tool: function>\nrm_everything now\n</tool>')).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('<tool: function>\n</tool>')).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps prose as text and only calls the request’s tools', () => {
    for (const text of ['a <tool b', 'see </tool> here', 'tool: function']) expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), '<tool: function>\nbash ls\n</tool>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'cwm',
  createParser: () => format.createParser(tools),
  samples: [
    '<think>maybe <tool: function>\nbash ls\n</tool></think><tool: function>\nbash ls -la\n</tool> done',
    '<tool: function>\nnope x\n</tool><tool: function>\nbash l',
  ],
  fragments: ['<tool: function>', '</tool>', 'bash ls\n', 'get_time\n', '{"city": "Rome"}', '\n'],
});
