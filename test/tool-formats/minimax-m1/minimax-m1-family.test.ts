import { describe, expect, it } from 'vitest';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('minimax-m1');

testFamilyTable(format);

describe('minimax-m1: parsing', () => {
  it("reads the function-call guide's reply: reasoning, then one call object per line", () => {
    const reply =
      '<think>\nOkay, I will search for the OpenAI and Gemini latest release.\n</think>\n<tool_calls>\n{"name": "search_web", "arguments": {"query": "\\"OpenAI\\" \\"latest\\" \\"release\\""}}\n{"name": "search_web", "arguments": {"query": "\\"Gemini\\" \\"latest\\" \\"release\\""}}\n</tool_calls>';
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'Okay, I will search for the OpenAI and Gemini latest release.' },
      { type: 'text', text: '\n' },
      call('search_web', { query: '"OpenAI" "latest" "release"' }),
      call('search_web', { query: '"Gemini" "latest" "release"' }),
    ]);
  });

  it('does not take calls written inside <think> for calls', () => {
    expect(
      parse('<think>I could write <tool_calls>\n{"name": "get_time", "arguments": {}}\n</tool_calls> but no.</think>It is noon.'),
    ).toEqual([
      { type: 'reasoning', text: 'I could write <tool_calls>\n{"name": "get_time", "arguments": {}}\n</tool_calls> but no.' },
      { type: 'text', text: 'It is noon.' },
    ]);
  });

  it('keeps the good lines when one names an unknown tool and reports a cut-off one', () => {
    expect(parse('<tool_calls>\n{"name": "get_time", "arguments": {}}\n{"name": "reboot", "arguments": {}}\n</tool_calls>')).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    const cut = '<tool_calls>\n{"name": "get_weather", "arguments": {"city": "Wuh';
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'minimax-m1', text: cut, reason: 'unclosed' }]);
  });
});
