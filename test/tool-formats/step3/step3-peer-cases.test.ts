/** Step3 replies from vLLM's step3 parser tests: parameter whitespace, the name line after the separator, the common suite. */
// Source: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_step3_tool_parser.py
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/step3/step3-tokens.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('step3')!;
/** `_WS_TOOLS` of the vLLM test. */
const editFile: ToolDefinition = {
  name: 'edit_file',
  description: 'Edit a file.',
  parameters: { type: 'object', properties: { old_string: { type: 'string' }, indent: { type: 'integer' }, enabled: { type: 'boolean' } } },
};
const tools = [editFile, ...offeredTools('test_function')];
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

/** `_ws_output` of the vLLM test: the name again after the separator, then values with edge whitespace. */
const whitespaceReply = (value: string, header = 'edit_file\n') =>
  `${toolCallsBegin}${toolCallBegin}function${toolSeparator}${header}<steptml:invoke name="edit_file">` +
  `<steptml:parameter name="old_string">${value}</steptml:parameter>` +
  '<steptml:parameter name="indent"> 4 </steptml:parameter>' +
  '<steptml:parameter name="enabled"> true </steptml:parameter>' +
  `</steptml:invoke>${toolCallEnd}${toolCallsEnd}`;

describe('step3: TestStep3ParameterWhitespace (vLLM)', () => {
  it.each(['    if x:', 'return 1\n', '    if x:\n        return 1\n', 'hello ', 'hello\u00a0', 'hello'])(
    'keeps the string value %j as written, and still types the integer and boolean around their spaces',
    (value) => {
      expect(parse(whitespaceReply(value))).toEqual([call('edit_file', { old_string: value, indent: 4, enabled: true })]);
    },
  );

  it('reads the name written again after the separator only when it is the invoke’s name', () => {
    expect(parse(whitespaceReply('x', 'get_weather\n'))).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
    expect(parse(whitespaceReply('x', ''))).toEqual([call('edit_file', { old_string: 'x', indent: 4, enabled: true })]);
  });

  it('reports a reply cut off after the name line as unclosed, never as a call', () => {
    const cut = `${toolCallsBegin}${toolCallBegin}function${toolSeparator}edit_file\n<steptml:inv`;
    expect(parse(cut)).toEqual([{ type: 'tool-call-unparsed', format: 'step3', text: cut, reason: 'unclosed' }]);
  });
});

describe('step3: the common suite’s various_data_types_output (vLLM)', () => {
  it('types the values as JSON where no schema says otherwise', () => {
    const parameters = {
      string_field: 'hello',
      int_field: '42',
      float_field: '3.14',
      bool_field: 'true',
      null_field: 'null',
      array_field: '["a", "b", "c"]',
      object_field: '{"nested": "value"}',
    };
    const reply = `${toolCallsBegin}${toolCallBegin}<steptml:invoke name="test_function">${Object.entries(parameters)
      .map(([key, value]) => `<steptml:parameter name="${key}">${value}</steptml:parameter>`)
      .join('')}</steptml:invoke>${toolCallEnd}${toolCallsEnd}`;
    expect(parse(reply)).toEqual([
      call('test_function', {
        string_field: 'hello',
        int_field: 42,
        float_field: 3.14,
        bool_field: true,
        null_field: null,
        array_field: ['a', 'b', 'c'],
        object_field: { nested: 'value' },
      }),
    ]);
  });
});

testChunkingInvariance({
  name: 'step3 (name line, whitespace)',
  createParser: () => format.createParser(tools),
  samples: [whitespaceReply('    if x:\n'), whitespaceReply('a', 'other\n'), `Edit.\n${whitespaceReply('b ')}\nDone.`],
  fragments: [
    toolCallsBegin,
    toolCallBegin,
    `function${toolSeparator}edit_file\n`,
    '<steptml:invoke name="edit_file">',
    toolCallEnd,
    toolCallsEnd,
  ],
});
