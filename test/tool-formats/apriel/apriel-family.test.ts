import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript } from '../helpers/family-contract.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('apriel');

testFamilyTable(format);

const reasoned =
  'The user wants the time in UTC.\nI should call get_time.\n[BEGIN FINAL RESPONSE]\nChecking the clock.\n<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>\n[END FINAL RESPONSE]';

describe('apriel: rendering', () => {
  it('renders tools in the words of the Apriel 1.6 template', () => {
    // History is written as Jamba writes it: one <tool_calls> list per turn, <tool_response> results.
    expect(historyTranscript(format)).toBe(historyTranscript(registry.get('jamba')!));
  });
});

describe('apriel: parsing', () => {
  it('reads a reply that starts inside reasoning (the 1.6 template opened it) up to [BEGIN FINAL RESPONSE]', () => {
    expect(parse(reasoned, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time in UTC.\nI should call get_time.' },
      { type: 'text', text: '\nChecking the clock.\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
    ]);
  });

  it('reads the reasoning opener when the model writes it itself', () => {
    expect(parse(`Here are my reasoning steps:\n${reasoned}`)).toEqual(parse(reasoned, { startsInReasoning: true }));
  });

  it('without an opener, keeps the reasoning as text but drops the markers and still reads the calls', () => {
    expect(parse(reasoned)).toEqual([
      { type: 'text', text: 'The user wants the time in UTC.\nI should call get_time.\n\nChecking the clock.\n' },
      call('get_time', {}),
      { type: 'text', text: '\n' },
    ]);
  });

  it("keeps the markers as text in other families' parsers", () => {
    const prose = 'Here are my reasoning steps: none. [BEGIN FINAL RESPONSE] ok [END FINAL RESPONSE]';
    expect(expectChunkingInvariant(() => registry.get('jamba')!.createParser(standardTools), prose)).toEqual([
      { type: 'text', text: prose },
    ]);
  });

  it('reads several calls with unicode and nested arguments and reports a cut-off list', () => {
    expect(
      parse(
        '<tool_calls>[{"name": "search_web", "arguments": {"query": "café ☕ near [Paris]", "max_results": 3}}, {"name": "read_file", "arguments": {"path": "a/b.md", "start_line": 2}}]</tool_calls>',
      ),
    ).toEqual([
      call('search_web', { query: 'café ☕ near [Paris]', max_results: 3 }),
      call('read_file', { path: 'a/b.md', start_line: 2 }),
    ]);
    const cut = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Ro';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'apriel', text: cut, reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'apriel',
  createParser: () => format.createParser(standardTools, { startsInReasoning: true }),
  samples: [reasoned, `Here are my reasoning steps:\n${reasoned}`],
  fragments: [
    'Here are my reasoning steps:',
    '[BEGIN FINAL RESPONSE]',
    '[END FINAL RESPONSE]',
    '<tool_calls>',
    '</tool_calls>',
    '[{"name": "get_weather", "arguments": {"city": "Rome"}}]',
    '[{"name": "get_wea',
  ],
});

testChunkingInvariance({
  name: 'apriel (reply not starting in reasoning)',
  createParser: () => format.createParser(standardTools),
  samples: [reasoned],
  fragments: [
    'Here are my reasoning steps:',
    '[BEGIN FINAL RESPONSE]',
    '[END FINAL RESPONSE]',
    '<tool_calls>',
    '</tool_calls>',
    '[{"name": "get_time", "arguments": {}}]',
  ],
  numRuns: 150,
});
