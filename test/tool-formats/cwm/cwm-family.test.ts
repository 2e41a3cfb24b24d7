/** The cwm family: `<tool: LABEL>\nNAME input\n</tool>` blocks, the input JSON or one command. */
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, call } = familyUnderTest('cwm');

testFamilyTable(format);

const bash: ToolDefinition = {
  name: 'bash',
  description: 'Run a shell command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const tools = [...standardTools, bash];
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(tools, options), text);

describe('cwm: rendering', () => {
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

  it('reports a cut-off call as unparsed', () => {
    expect(parse('<tool: function>\nbash ls -')).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
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
