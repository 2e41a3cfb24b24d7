/** OLMo 3 replies from vLLM's olmo3 parser tests: a bad call beside a good one, non-finite numbers, mismatched brackets. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_olmo3_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('olmo3')!;
const tools = offeredTools('get_weather', 'calc', 'foo', 'do_something_cool');
const parse = (text: string, roster = tools) => expectChunkingInvariant(() => format.createParser(roster), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

/** SIMPLE_FUNCTION_OUTPUT and SIMPLE_FUNCTION_CALL of the vLLM test. */
const simple = "get_weather(city='San Francisco', metric='celsius')";
const simpleCall = call('get_weather', { city: 'San Francisco', metric: 'celsius' });

describe('olmo3: a bad call beside a good one (vLLM’s test_bad_sibling_call_does_not_drop_good_calls)', () => {
  it('keeps the good call when its sibling names an unknown tool, reporting the unknown one', () => {
    expect(parse(`<function_calls>bad(x=b'z')\n${simple}</function_calls>`)).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
      simpleCall,
    ]);
  });

  it('deliberately differs on an offered tool called with a bytes literal: read as its text', () => {
    // vLLM cannot turn b'z' into JSON and drops that call; the Python reader reads a bytes literal as
    // the string it spells, which JSON can carry.
    expect(parse(`<function_calls>bad(x=b'z')\n${simple}</function_calls>`, [...tools, ...offeredTools('bad')])).toEqual([
      call('bad', { x: 'z' }),
      simpleCall,
    ]);
  });
});

describe('olmo3: numbers JSON cannot carry (vLLM’s test_non_finite_argument_rejected)', () => {
  it('refuses a call whose number overflows to infinity, and keeps its sibling', () => {
    const events = parse(`<function_calls>calc(x=1e999)\n${simple}</function_calls>`);
    expect(events).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }, simpleCall]);
    for (const event of events) if (event.type === 'tool-call') expect(() => JSON.parse(event.arguments) as unknown).not.toThrow();
  });

  it('refuses it in every family: the check is on the arguments, not on the syntax', () => {
    const hermes = createToolFormatRegistry().get('hermes')!;
    const reply = '<tool_call>{"name": "calc", "arguments": {"x": [1, 1e999]}}</tool_call>';
    expect(expectChunkingInvariant(() => hermes.createParser(tools), reply)).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });
});

describe('olmo3: the rest of the suite', () => {
  it('rejects mismatched brackets without a call (test_streaming_mismatched_brackets_reported_once)', () => {
    expect(parse('<function_calls>foo(x=1])</function_calls>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('reads the large-steps reply: three calls, one per line (test_streaming_tool_call_with_large_steps)', () => {
    expect(parse(`<function_calls>${simple}\nget_weather()\ndo_something_cool(steps=[])</function_calls>`)).toEqual([
      simpleCall,
      call('get_weather', {}),
      call('do_something_cool', { steps: [] }),
    ]);
  });
});

testChunkingInvariance({
  name: 'olmo3 (bad siblings)',
  createParser: () => format.createParser(tools),
  samples: [
    `<function_calls>bad(x=b'z')\n${simple}</function_calls>`,
    `<function_calls>calc(x=1e999)\n${simple}</function_calls>`,
    '<function_calls>foo(x=1])</function_calls>',
  ],
  fragments: ['<function_calls>', '</function_calls>', "bad(x=b'z')\n", 'calc(x=1e999)\n', simple, 'foo(x=1])'],
});
