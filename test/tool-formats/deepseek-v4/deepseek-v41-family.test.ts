import { describe, expect, it } from 'vitest';
import { toolCallsClose, toolCallsOpen } from '../../../tool-formats/shared/dsml-tokens.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('deepseek-v41');

testFamilyTable(format);

const parameter = (name: string, value: string, string = true) =>
  `<｜DSML｜ parameter name="${name}" string="${string}">${value}</｜DSML｜ parameter>`;
const invoke = (name: string, ...parameters: string[]) => `<｜DSML｜ invoke name="${name}">\n${parameters.join('\n')}\n</｜DSML｜ invoke>`;
const section = (...invokes: string[]) => `<｜DSML｜ calls>\n${invokes.join('\n')}\n</｜DSML｜ calls>`;

describe('deepseek-v41: rendering', () => {
  it("writes calls in V4.1's spaced tags, as its encoder's tag names say", () => {
    expect(format.renderCall({ name: 'search_web', arguments: '{"query":"a < b","max_results":3}' })).toBe(
      section(invoke('search_web', parameter('query', 'a < b'), parameter('max_results', '3', false))),
    );
  });
});

describe('deepseek-v41: parsing', () => {
  it('reads text and parallel invokes in a spaced calls section, the values converted by the tool schema', () => {
    const reply = `Let me check.\n\n${section(
      invoke('get_weather', parameter('city', 'Hangzhou'), parameter('unit', 'celsius')),
      invoke('search_web', parameter('query', '42'), parameter('max_results', '5', false)),
    )}<｜end▁of▁sentence｜>`;
    expect(parse(reply)).toEqual([
      { type: 'text', text: 'Let me check.\n\n' },
      call('get_weather', { city: 'Hangzhou', unit: 'celsius' }),
      call('search_web', { query: '42', max_results: 5 }),
    ]);
  });

  it("still reads V4's tool_calls section", () => {
    const reply = `${toolCallsOpen}\n<｜DSML｜invoke name="get_time">\n\n</｜DSML｜invoke>\n${toolCallsClose}`;
    expect(parse(reply)).toEqual([call('get_time', {})]);
  });
});
