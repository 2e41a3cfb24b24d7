import { describe, expect, it } from 'vitest';
import {
  functionCallsClose,
  functionCallsOpen,
  invokeClose,
  toolCallsClose,
  toolCallsOpen,
} from '../../../tool-formats/shared/dsml-tokens.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('deepseek-v4');

testFamilyTable(format);

const parameter = (name: string, value: string, string = true) =>
  `<｜DSML｜parameter name="${name}" string="${string}">${value}</｜DSML｜parameter>`;
const invoke = (name: string, ...parameters: string[]) => `<｜DSML｜invoke name="${name}">\n${parameters.join('\n')}\n${invokeClose}`;
const section = (...invokes: string[]) => `${toolCallsOpen}\n${invokes.join('\n')}\n${toolCallsClose}`;

describe('deepseek-v4: rendering', () => {
  it("writes a turn's calls in a tool_calls section after a blank line, strings as they are and other values as JSON", () => {
    expect(format.renderCall({ name: 'search_web', arguments: '{"query":"a < b","max_results":3}' })).toBe(
      section(invoke('search_web', parameter('query', 'a < b'), parameter('max_results', '3', false))),
    );
  });

  it('declares no special tokens: the DSML markers are text to the tokenizer', () => {
    expect(format.specialTokens).toEqual([]);
  });
});

describe('deepseek-v4: parsing', () => {
  it('reads reasoning, text and parallel invokes, the values converted by the tool schema', () => {
    const reply = `<think>Two cities.</think>Checking.\n\n${section(
      invoke('get_weather', parameter('city', '杭州'), parameter('unit', 'celsius')),
      invoke('search_web', parameter('query', '42'), parameter('max_results', '5', false)),
    )}<｜end▁of▁sentence｜>`;
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'Two cities.' },
      { type: 'text', text: 'Checking.\n\n' },
      call('get_weather', { city: '杭州', unit: 'celsius' }),
      call('search_web', { query: '42', max_results: 5 }),
    ]);
  });

  it('reads a reply that begins inside the reasoning the generation prompt opened', () => {
    expect(parse(`The user asks for the time.</think>\n\n${section(invoke('get_time'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user asks for the time.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });

  it("keeps a value's markup, the section end included, as written", () => {
    const content = `line 1\n  ${toolCallsClose} </｜DSML｜invoke> "q"\n`;
    expect(parse(section(invoke('write_file', parameter('path', 'a.md'), parameter('content', content))))).toEqual([
      call('write_file', { path: 'a.md', content }),
    ]);
  });

  it("still reads V3.2's function_calls section", () => {
    expect(parse(`${functionCallsOpen}\n${invoke('get_time')}\n${functionCallsClose}`)).toEqual([call('get_time', {})]);
  });

  it("reads V4.1's calls section, whose tags have a space before their names", () => {
    const reply =
      'Let me check.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name="get_weather">\n' +
      '<｜DSML｜ parameter name="city" string="true">Hangzhou</｜DSML｜ parameter>\n' +
      '<｜DSML｜ parameter name="unit" string="true">celsius</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>';
    expect(parse(reply)).toEqual([{ type: 'text', text: 'Let me check.\n\n' }, call('get_weather', { city: 'Hangzhou', unit: 'celsius' })]);
  });

  it('reports a section cut off inside a value, keeping the closed invokes before it', () => {
    const cut = `${toolCallsOpen}\n${invoke('get_time')}\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Pa`;
    expect(parse(cut)).toMatchObject([call('get_time', {}), { type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });
});
