/** Hermes 2 Pro replies from llama.cpp's chat tests: calls in Markdown fences and the `<function …>` tags. */
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

describe('hermes: calls in Markdown fences (llama.cpp)', () => {
  it('reads a call in a ```xml, a bare ``` or a ```json fence, leaving none of the fence in the text', () => {
    expect(parse('```xml\n  ' + object + '\n```')).toEqual([special]);
    expect(parse('```\n  ' + object + '\n```')).toEqual([special]);
    expect(parse('```\n' + object + '\n```')).toEqual([special]);
    expect(parse('```json\n  ' + object + '\n```')).toEqual([special]);
  });

  it('reads a wrapper tag inside a fence: ```xml around <response>, ```json around <function_call>', () => {
    expect(parse('```xml\n<response>\n    ' + object + '\n</response>\n```')).toEqual([special]);
    // llama.cpp also drops the space after the closing fence; whitespace is content here (DESIGN.md §4.1).
    expect(parse('```json\n\n                    <function_call> ' + object + ' \n                    </function_call> \n``` ')).toEqual([
      special,
      { type: 'text', text: ' ' },
    ]);
  });

  it('reads several calls in one fence, streamed or whole, leaving none of the fence or the space between them', () => {
    const python = call('python', { code: 'print(1)' });
    const second = '{"name": "python", "arguments": {"code": "print(1)"}}';
    expect(parse('```xml\n<tool_call>\n' + object + '\n</tool_call>\n<tool_call>\n' + second + '\n</tool_call>\n```')).toEqual([
      special,
      python,
    ]);
    expect(parse('Both.\n```json\n' + object + '\n' + second + '\n```\nDone.')).toEqual([
      { type: 'text', text: 'Both.\n' },
      special,
      python,
      { type: 'text', text: '\nDone.' },
    ]);
    expect(parse('```\n<tool_call>' + object + '</tool_call><tool_call>' + second + '</tool_call>\n```')).toEqual([special, python]);
  });

  it('gives a fence of several calls back to the text, the space between them included, when more than calls is in it', () => {
    expect(parse('```xml\n<tool_call>' + object + '</tool_call>\n  <tool_call>' + object + '</tool_call>\nDone.\n```')).toEqual([
      { type: 'text', text: '```xml\n' },
      special,
      { type: 'text', text: '\n  ' },
      special,
      { type: 'text', text: '\nDone.\n```' },
    ]);
  });

  it('keeps the text around a fenced call byte for byte', () => {
    expect(parse('Checking.\n```xml\n' + object + '\n```\nDone.')).toEqual([
      { type: 'text', text: 'Checking.\n' },
      special,
      { type: 'text', text: '\nDone.' },
    ]);
  });

  it('keeps a fence that holds no call to an offered tool as text, byte for byte', () => {
    for (const text of [
      '```\n{"a": 1}\n```',
      '```xml\n<response>\n  <status>ok</status>\n</response>\n```',
      '```xml\n<tool>hammer</tool>\n```',
      '```\nplain code\n```\n\nNext paragraph.',
      '```python\nprint(1)\n```',
      '```json\n{"name": "Alice", "age": 31}\n```',
      'Inline ``` fences ``` and ```\n``` pairs.',
    ])
      expect(parse(text), text).toEqual([{ type: 'text', text }]);
  });

  it('takes the reply’s end as the closer of a fence with an info string only', () => {
    expect(parse('```xml\n' + object + '\n')).toEqual([special]);
    // A bare ``` may have closed a code block before the call (the next test).
    expect(parse('```\n' + object + '\n')).toEqual([{ type: 'text', text: '```\n' }, special, { type: 'text', text: '\n' }]);
  });

  it('keeps the fence as text when more than calls is in it', () => {
    expect(parse('```xml\n' + object + '\nDone.\n```')).toEqual([
      { type: 'text', text: '```xml\n' },
      special,
      { type: 'text', text: '\nDone.\n```' },
    ]);
  });

  it('keeps the closing fence of a code block before a call: a bare ``` may close a block as well as open one', () => {
    expect(parse('```python\nprint(1)\n```\n<tool_call>\n' + object + '\n</tool_call>')).toEqual([
      { type: 'text', text: '```python\nprint(1)\n```\n' },
      special,
    ]);
  });
});

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
  name: 'hermes (fences and function tags)',
  createParser: () => format.createParser(tools),
  samples: [
    '```xml\n<response>\n    ' + object + '\n</response>\n```',
    'Hi.\n```\n' + object + '\n```\n```python\nx = 1\n```\n<tool_call>' + object + '</tool_call>',
    '<function name="special_function">\n{"arg1": 1}\n</function>',
    '```xml\n<tool_call>\n' + object + '\n</tool_call>\n<tool_call>' + object + '</tool_call>\n```\nok',
    '```json\n' + object + '\n' + object + '\nnot a call\n```',
  ],
  fragments: [
    '```',
    '```\n',
    '```xml\n',
    '```json\n',
    '``` ',
    '\n  ',
    object,
    '<response>',
    '</response>',
    '<function_call>',
    '</function_call>',
    '<function name="special_function">',
    '<function=python>',
    '</function>',
    '{"arg1": 1}',
  ],
});
