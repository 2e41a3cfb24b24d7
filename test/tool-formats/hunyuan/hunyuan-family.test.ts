import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { historyTranscript } from '../helpers/family-contract.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('hunyuan');

testFamilyTable(format);

describe('hunyuan: rendering', () => {
  it('renders tools in the words of the Hunyuan-A13B template', () => {
    // History is written as Jamba writes it: one <tool_calls> list per turn, <tool_response> results.
    expect(historyTranscript(format)).toBe(historyTranscript(registry.get('jamba')!));
  });
});

describe('hunyuan: parsing', () => {
  it('reads the slow-thinking reply of its agent guide: reasoning, then the call inside <answer>', () => {
    const reply =
      '<think>\n用户想知道深圳的天气，我应该调用 get_weather。\n</think>\n<answer>\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Shenzhen"}}]</tool_calls>\n</answer>';
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: '用户想知道深圳的天气，我应该调用 get_weather。' },
      { type: 'text', text: '\n\n' },
      call('get_weather', { city: 'Shenzhen' }),
      { type: 'text', text: '\n' },
    ]);
  });

  it('reads the fast-thinking form with an empty think block and two calls', () => {
    const reply =
      '<think>\n\n</think>\n<answer><tool_calls>[{"name": "get_weather", "arguments": {"city": "Beijing"}}, {"name": "get_weather", "arguments": {"city": "Shanghai"}}]</tool_calls></answer>';
    expect(parse(reply).filter((event) => event.type !== 'text' && event.type !== 'reasoning')).toEqual([
      call('get_weather', { city: 'Beijing' }),
      call('get_weather', { city: 'Shanghai' }),
    ]);
  });

  it('gives the answer inside <answer> as text, without the framing and the 助手： prefix', () => {
    expect(parse('<think>\nok\n</think>\n<answer>\n助手：北京和上海都是晴天。\n</answer>')).toEqual([
      { type: 'reasoning', text: 'ok' },
      { type: 'text', text: '\n\n北京和上海都是晴天。\n' },
    ]);
  });

  it("keeps <answer> and 助手： as text in other families' parsers", () => {
    const prose = 'Wrap it as <answer>42</answer>, 助手：ok.';
    expect(expectChunkingInvariant(() => registry.get('hermes')!.createParser(standardTools), prose)).toEqual([
      { type: 'text', text: prose },
    ]);
  });

  it('ignores calls quoted inside reasoning and reports a cut-off list', () => {
    expect(
      parse('<think>maybe <tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>?</think><answer>助手：No call needed.</answer>'),
    ).toEqual([
      { type: 'reasoning', text: 'maybe <tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>?' },
      { type: 'text', text: 'No call needed.' },
    ]);
    const cut = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Sh';
    expect(parse(`<answer>${cut}`)).toEqual([{ type: 'tool-call-unparsed', format: 'hunyuan', text: cut, reason: 'unclosed' }]);
  });
});
