import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('minimax-m2');

testFamilyTable(format);

const parseWith = (tools: ToolDefinition[], text: string) => expectChunkingInvariant(() => format.createParser(tools), text);

const searchTagged: ToolDefinition = {
  name: 'search_web',
  description: 'Search function.',
  parameters: {
    type: 'object',
    properties: {
      query_list: { type: 'array', items: { type: 'string' } },
      query_tag: { type: 'array', items: { type: 'string' } },
      limit: { type: 'integer' },
      exact: { type: 'boolean' },
      code: { type: 'string' },
    },
  },
};

describe('minimax-m2: rendering', () => {
  it('pads a value that starts and ends with a newline, so that it reads back unchanged', () => {
    const rendered = format.renderCall({ name: 'write_file', arguments: JSON.stringify({ path: '7', content: '\nline\n' }) });
    expect(rendered).toContain('<parameter name="content">\n\nline\n\n</parameter>');
    expect(parse(rendered)).toEqual([call('write_file', { path: '7', content: '\nline\n' })]);
  });
});

describe('minimax-m2: parsing', () => {
  it("reads the tool-calling guide's two invokes in one block, typing values by the schema", () => {
    const reply =
      'Let me search.\n<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query_tag">["technology", "events"]</parameter>\n<parameter name="query_list">["\\"OpenAI\\" \\"latest\\" \\"release\\""]</parameter>\n</invoke>\n<invoke name="search_web">\n<parameter name="query_tag">["technology", "events"]</parameter>\n<parameter name="query_list">["\\"Gemini\\" \\"latest\\" \\"release\\""]</parameter>\n<parameter name="limit">5</parameter>\n<parameter name="exact">false</parameter>\n<parameter name="code">0042</parameter>\n</invoke>\n</minimax:tool_call>';
    expect(parseWith([searchTagged], reply)).toEqual([
      { type: 'text', text: 'Let me search.\n' },
      call('search_web', { query_tag: ['technology', 'events'], query_list: ['"OpenAI" "latest" "release"'] }),
      call('search_web', {
        query_tag: ['technology', 'events'],
        query_list: ['"Gemini" "latest" "release"'],
        limit: 5,
        exact: false,
        code: '0042',
      }),
    ]);
  });

  it('reads a reply that starts inside reasoning (the template opened <think>), single-quoted names, and values on their own lines', () => {
    const content = 'def main():\n    print("</minimax:tool_call>")\n';
    const reply = `The user wants a file.\n</think>\n\n<minimax:tool_call>\n<invoke name='write_file'>\n<parameter name='path'>main.py</parameter>\n<parameter name="content">\n${content}\n</parameter>\n</invoke>\n</minimax:tool_call>`;
    expect(parse(reply, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants a file.' },
      { type: 'text', text: '\n\n' },
      call('write_file', { path: 'main.py', content }),
    ]);
  });

  it('rejects unknown tools and unreadable sections without leaking the markup', () => {
    const unknown = parse('<minimax:tool_call>\n<invoke name="delete_everything">\n</invoke>\n</minimax:tool_call>');
    expect(unknown).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(textOf(unknown)).toBe('');
    const malformed = [
      '<minimax:tool_call>\nget_weather city=Paris\n</minimax:tool_call>',
      '<minimax:tool_call>\n<invoke name="get_weather">\ncity: Paris\n</invoke>\n</minimax:tool_call>',
    ];
    for (const reply of malformed) expect(parse(reply), reply).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    // A value never closed holds the rest of the reply (its closers may be code): reported, not read.
    const unclosedValue = '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris\n</invoke>\n</minimax:tool_call>';
    expect(parse(unclosedValue)).toEqual([{ type: 'tool-call-unparsed', format: 'minimax-m2', text: unclosedValue, reason: 'unclosed' }]);
  });

  it('never surfaces a cut-off call', () => {
    const cutOffs = [
      '<minimax:tool_call>\n<invoke name="get_wea',
      '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Par',
      // Nothing but </invoke> marks the last parameter: more may have been coming.
      '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n',
    ];
    for (const reply of cutOffs)
      expect(parse(`On it.\n${reply}`), reply).toEqual([
        { type: 'text', text: 'On it.\n' },
        { type: 'tool-call-unparsed', format: 'minimax-m2', text: reply, reason: 'unclosed' },
      ]);
  });

  it("keeps a section's complete calls when the reply stops inside a later one, and reports that one", () => {
    const reply = '<minimax:tool_call>\n<invoke name="get_time">\n</invoke>\n<invoke name="get_weather">\n<parameter name="city">Os';
    expect(parse(reply)).toMatchObject([call('get_time', {}), { type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });
});
