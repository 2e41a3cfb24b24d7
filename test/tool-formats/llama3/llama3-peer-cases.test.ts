/** Llama 3.1 built-in tool calls from llama.cpp's chat tests: `<|python_tag|>NAME.call(ARG=VALUE)`. */
// Source: https://github.com/ggml-org/llama.cpp/blob/master/tests/test-chat.cpp, the
// meta-llama-Llama-3.1-8B-Instruct block of `test_template_output_parsers` (COMMON_CHAT_FORMAT_LLAMA_3_X
// with built-in tools): `<|python_tag|>python.call(code="print('hey')")` is `message_assist_call_python`,
// python({"code": "print('hey')"}). llama.cpp's Llama 3.x parser reads every `NAME.call(…)` that way,
// which is how Meta's template writes brave_search and wolfram_alpha calls.
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';
import { python } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('llama3')!;
const tools = [python, ...offeredTools('brave_search', 'wolfram_alpha', 'code_interpreter')];
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('llama3: built-in tool calls (llama.cpp)', () => {
  it('reads NAME.call(…) as a call to NAME', () => {
    expect(parse('<|python_tag|>python.call(code="print(\'hey\')")')).toEqual([call('python', { code: "print('hey')" })]);
    expect(parse('<|python_tag|>code_interpreter.call(code="print(\'hey\')")')).toEqual([
      call('code_interpreter', { code: "print('hey')" }),
    ]);
    expect(parse('<|python_tag|>brave_search.call(query="Stockholm weather")<|eom_id|>')).toEqual([
      call('brave_search', { query: 'Stockholm weather' }),
    ]);
    expect(parse('<|python_tag|>wolfram_alpha.call(query="solve x^2 = 4")')).toEqual([call('wolfram_alpha', { query: 'solve x^2 = 4' })]);
  });

  it('keeps the roster rule: a built-in that was not offered is rejected under its own name', () => {
    expect(expectChunkingInvariant(() => format.createParser([python]), '<|python_tag|>brave_search.call(query="x")')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool', message: 'The model called "brave_search", which is not an available tool' },
    ]);
  });

  it('keeps text before the tag and a call written as text', () => {
    expect(parse('Searching now.<|python_tag|>brave_search.call(query="a")')).toEqual([
      { type: 'text', text: 'Searching now.' },
      call('brave_search', { query: 'a' }),
    ]);
    expect(parse('Use brave_search.call(query="a") to search.')).toEqual([
      { type: 'text', text: 'Use brave_search.call(query="a") to search.' },
    ]);
  });
});

testChunkingInvariance({
  name: 'llama3 (built-in tools)',
  createParser: () => format.createParser(tools),
  samples: ['<|python_tag|>python.call(code="print(\'hey\')")', 'Ok.<|python_tag|>brave_search.call(query="a; b")<|eom_id|>'],
  fragments: ['<|python_tag|>', '<|eom_id|>', 'brave_search.call(query="x")', 'python.call(code="1")', '.call(', ')'],
});
