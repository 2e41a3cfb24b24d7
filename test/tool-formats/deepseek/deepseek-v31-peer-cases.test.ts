/** DeepSeek V3.1 replies from llama.cpp's and vLLM's tests: reasoning_content with two calls, calls inside reasoning, unparsable blocks. */
// Sources: llama.cpp's DeepSeek V3.1 parser test (test_deepseek_v3_1_parser, tests/test-chat.cpp and its
// split-out chat tests), https://github.com/ggml-org/llama.cpp/blob/master/tests/test-chat.cpp;
// https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_deepseekv31_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/shared/deepseek-tokens.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('deepseek')!;
const tools = offeredTools('get_time', 'get_weather', 'foo', 'bar');
/** The V3.1 template opens `<think>` in the generation prompt when thinking is on (llama.cpp's thinking_forced_open). */
const thinking = { startsInReasoning: true };
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(tools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const v31Call = (name: string, json: string) => `${toolCallBegin}${name}${toolSeparator}${json}${toolCallEnd}`;
const section = (...calls: string[]) => toolCallsBegin + calls.join('') + toolCallsEnd;
const twoCalls = section(v31Call('get_time', '{"city": "Paris"}'), v31Call('get_weather', '{"city": "Paris"}'));

describe('deepseek V3.1: reasoning_content and two calls (llama.cpp)', () => {
  it('reads the reasoning the template opened, the content and both calls in order', () => {
    expect(parse(`I'm\nthinking</think>CONTENT${twoCalls}<｜end▁of▁sentence｜>`, thinking)).toEqual([
      { type: 'reasoning', text: "I'm\nthinking" },
      { type: 'text', text: 'CONTENT' },
      call('get_time', { city: 'Paris' }),
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('reads both calls after an explicit <think> block too ("simple + multiple tool calls")', () => {
    expect(parse(`<think>REASONING</think>CONTENT${twoCalls}`)).toEqual([
      { type: 'reasoning', text: 'REASONING' },
      { type: 'text', text: 'CONTENT' },
      call('get_time', { city: 'Paris' }),
      call('get_weather', { city: 'Paris' }),
    ]);
  });

  it('leaves a call written inside the reasoning in the reasoning ("tool call in reasoning content")', () => {
    const inner = section(v31Call('get_time2', '{"city": "Tokyo2"}'));
    expect(parse(`REASONING${inner}REASONING</think>${section(v31Call('get_time', '{"city": "Tokyo"}'))}`, thinking)).toEqual([
      { type: 'reasoning', text: `REASONING${inner}REASONING` },
      call('get_time', { city: 'Tokyo' }),
    ]);
  });

  it('deliberately differs when </think> never comes: the reasoning already streamed stays, and the text is replayed as content', () => {
    // llama.cpp gives content "REASONING" and the call, with no reasoning. A stream cannot take back what
    // it sent as reasoning, so it stays, a warning says so, and the text is read again as the answer.
    expect(parse(`REASONING${section(v31Call('get_time', '{"city": "Tokyo"}'))}`, thinking)).toMatchObject([
      { type: 'reasoning' },
      { type: 'warning', code: 'reasoning-unclosed' },
      { type: 'text', text: 'REASONING' },
      call('get_time', { city: 'Tokyo' }),
    ]);
  });
});

describe('deepseek V3.1: vLLM’s test_deepseekv31_tool_parser', () => {
  it('reads two calls with text around them (test_extract_tool_calls_with_multiple_tools)', () => {
    const reply = `some prefix text${section(v31Call('foo', '{"x":1}'), v31Call('bar', '{"y":2}'))} some suffix text`;
    expect(parse(reply)).toEqual([
      { type: 'text', text: 'some prefix text' },
      call('foo', { x: 1 }),
      call('bar', { y: 2 }),
      { type: 'text', text: ' some suffix text' },
    ]);
  });

  it('deliberately differs on its unparsable blocks (test_extract_tool_calls_unparsable_block)', () => {
    // vLLM returns both replies whole as content. A cut-off section is reported as unclosed and never
    // shown as the answer (DESIGN.md §4.3)…
    expect(parse(`Let me look that up.${toolCallsBegin}get_weather`)).toEqual([
      { type: 'text', text: 'Let me look that up.' },
      { type: 'tool-call-unparsed', format: 'deepseek', text: `${toolCallsBegin}get_weather`, reason: 'unclosed' },
    ]);
    // …and a call written in the section without its call tokens is still one call, whose name and
    // arguments can be read one way only (DESIGN.md §4.4).
    expect(parse(`${toolCallsBegin}foo${toolSeparator}{"x":1}${toolCallsEnd}`)).toEqual([call('foo', { x: 1 })]);
  });
});

testChunkingInvariance({
  name: 'deepseek V3.1 (reasoning and two calls)',
  createParser: () => format.createParser(tools, thinking),
  samples: [`I'm\nthinking</think>CONTENT${twoCalls}`, `R${section(v31Call('get_time2', '{}'))}R</think>${twoCalls}`],
  fragments: ['</think>', toolCallsBegin, toolCallsEnd, v31Call('get_time', '{"city": "Paris"}'), 'CONTENT', '<｜end▁of▁sentence｜>'],
});
