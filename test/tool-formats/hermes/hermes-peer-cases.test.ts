/** Hermes 2 Pro replies from llama.cpp's chat tests: the `<function …>` tags. */
// Source: https://github.com/ggml-org/llama.cpp/blob/master/tests/test-chat.cpp, the
// COMMON_CHAT_FORMAT_HERMES_2_PRO parse cases of `test_template_output_parsers` (each expects the call
// special_function({"arg1": 1}) and empty content, `message_assist_call`).
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { python } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('hermes')!;
/** llama.cpp's `special_function_tool` and `python_tool`. */
const specialFunction: ToolDefinition = {
  name: 'special_function',
  description: "I'm special",
  parameters: { type: 'object', properties: { arg1: { type: 'integer', description: 'The arg.' } }, required: ['arg1'] },
};
const tools = [specialFunction, python];
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const special = call('special_function', { arg1: 1 });
const object = '{"name": "special_function", "arguments": {"arg1": 1}}';

describe('hermes: the <function …> tags (llama.cpp)', () => {
  it('reads <function=NAME>{json}</function>, one or several', () => {
    expect(parse('<function=special_function>{"arg1": 1}</function>')).toEqual([special]);
    expect(parse('<function=special_function>{"arg1": 1}</function>\n<function=python>{"code":"print(\'hello\')"}</function>')).toEqual([
      special,
      { type: 'text', text: '\n' },
      call('python', { code: "print('hello')" }),
    ]);
  });

  it('reads <function name="NAME">{json}</function>', () => {
    expect(parse('<function name="special_function">\n{"arg1": 1}\n</function>')).toEqual([special]);
    expect(parse('Sure. <function name="python">{"code": "1"}</function> ok')).toEqual([
      { type: 'text', text: 'Sure. ' },
      call('python', { code: '1' }),
      { type: 'text', text: ' ok' },
    ]);
  });
});

testChunkingInvariance({
  name: 'hermes (function tags)',
  createParser: () => format.createParser(tools),
  samples: ['<function name="special_function">\n{"arg1": 1}\n</function>'],
  fragments: [object, '<function name="special_function">', '<function=python>', '</function>', '{"arg1": 1}'],
});
