import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('ernie');

testFamilyTable(format);

const block = (json: string) => `<tool_call>\n${json}\n</tool_call>`;

describe('ernie: rendering', () => {
  it('writes the Hermes layout, which its <tool_call> JSON is', () => {
    const hermes = registry.get('hermes')!;
    expect(format.renderCall({ name: 'get_time', arguments: '{}' })).toBe(hermes.renderCall({ name: 'get_time', arguments: '{}' }));
    expect(format.renderTools(standardTools, { type: 'auto' })).toBe(hermes.renderTools(standardTools, { type: 'auto' }));
  });
});

describe('ernie: parsing', () => {
  it("reads the thinking model's reply, whose <think> the template opened (vLLM ernie45 docstring)", () => {
    expect(
      parse('abc\n</think>\n\n\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\n', { startsInReasoning: true }),
    ).toEqual([{ type: 'reasoning', text: 'abc' }, { type: 'text', text: '\n\n\n' }, call('get_time', {}), { type: 'text', text: '\n' }]);
  });

  it('reads several calls, unicode and nesting', () => {
    expect(
      parse(
        `${block('{"name": "get_weather", "arguments": {"city": "北京"}}')}\n${block('{"name": "create_event", "arguments": {"title": "</tool_call>", "options": {"remind": true}}}')}`,
      ),
    ).toEqual([
      call('get_weather', { city: '北京' }),
      { type: 'text', text: '\n' },
      call('create_event', { title: '</tool_call>', options: { remind: true } }),
    ]);
  });
});

testChunkingInvariance({
  name: 'ernie',
  createParser: () => format.createParser(standardTools, { startsInReasoning: true }),
  samples: ['plan\n</think>\n\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>', 'x</think><response>\nHi\n</response>'],
  fragments: ['</think>', '<tool_call>', '</tool_call>', '{"name": "get_time", "arguments": {}}', '<response>', '</response>'],
});
