import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const format = registry.get('hunyuan')!;
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

testFamilyContract(format);

describe('hunyuan: rendering', () => {
  it('renders tools in the words of the Hunyuan-A13B template', () => {
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toMatchInlineSnapshot(`
      "你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。
      如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。
      如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。
      如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。
      你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},...]</tool_calls>。你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。

      [{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}]

      如果你决定返回函数调用，请将其格式化为<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},...]</tool_calls>，不得包含其他文本。
      否则，请参考开头说的三种情况，以助手：开头进行回复。

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
      - get_weather
      <tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}]</tool_calls>

      函数的调用结果会在下一轮用户消息中返回，每个结果放在<tool_response></tool_response>标签内。"
    `);
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

  it('ignores calls quoted inside reasoning, rejects unknown tools and reports a cut-off list', () => {
    expect(
      parse('<think>maybe <tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>?</think><answer>助手：No call needed.</answer>'),
    ).toEqual([
      { type: 'reasoning', text: 'maybe <tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>?' },
      { type: 'text', text: 'No call needed.' },
    ]);
    expect(parse('<answer><tool_calls>[{"name": "rm", "arguments": {}}]</tool_calls></answer>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    const cut = '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Sh';
    expect(parse(`<answer>${cut}`)).toEqual([{ type: 'tool-call-unparsed', format: 'hunyuan', text: cut, reason: 'unclosed' }]);
  });
});

testChunkingInvariance({
  name: 'hunyuan',
  createParser: () => format.createParser(standardTools),
  samples: [
    '<think>\nplan\n</think>\n<answer>\n<tool_calls>[{"name": "get_time", "arguments": {}}]</tool_calls>\n</answer>',
    '<answer>助手：你好！</answer>',
  ],
  fragments: [
    '<think>',
    '</think>',
    '<answer>',
    '</answer>',
    '助手：',
    '<tool_calls>',
    '</tool_calls>',
    '[{"name": "get_weather", "arguments": {"city": "Rome"}}]',
    '[{"name": "get_wea',
  ],
});
