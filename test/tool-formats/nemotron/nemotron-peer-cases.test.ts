/** Nemotron replies from vLLM's nemotron_json / nemotron_nano_v2 parser tests: a malformed <TOOLCALL>, shapes of the list. */
// Sources: https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_nemotron_json_tool_parser.py and
// test_nemotron_nano_v2_tool_parser.py beside it (the same cases).
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { offeredTools } from '../helpers/peer-suites.js';

const format = createToolFormatRegistry().get('nemotron')!;
const tools = offeredTools('get_weather', 'lookup', 'run_query', 'search', 'lookup_timezone');
const parse = (text: string) => expectChunkingInvariant(() => format.createParser(tools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });

describe('nemotron: a malformed <TOOLCALL> (vLLM’s test_extract_tool_calls_returns_original_for_malformed)', () => {
  it('deliberately differs: the markup never goes back to the content', () => {
    // vLLM returns `<TOOLCALL>[{"name": "broken", "arguments": {}</TOOLCALL>` as content. An explicit
    // envelope that yields no call is reported in diagnostics instead, never shown as the answer (DESIGN.md §4.3).
    expect(parse('<TOOLCALL>[{"name": "broken", "arguments": {}</TOOLCALL>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });

  it('deliberately differs: closers missing before </TOOLCALL> are repaired when the call names an offered tool', () => {
    // The close tag says the model ended the call there; the arguments object is whole, and only the
    // call's `}` and the list's `]` are missing, which can be added one way only (DESIGN.md §4.4).
    expect(parse('<TOOLCALL>[{"name": "get_weather", "arguments": {}</TOOLCALL>')).toEqual([call('get_weather', {})]);
  });
});

describe('nemotron: the rest of the suite', () => {
  it('reads a lone object, string arguments and two calls (wraps_single_object, supports_string_arguments, multiple)', () => {
    expect(parse('<TOOLCALL>{"name": "lookup", "arguments": {"query": "vllm"}}</TOOLCALL>')).toEqual([call('lookup', { query: 'vllm' })]);
    expect(parse('<TOOLCALL>[{"name": "run_query", "arguments": "{\\"sql\\": \\"select 1\\"}"}]</TOOLCALL>')).toEqual([
      call('run_query', { sql: 'select 1' }),
    ]);
    expect(
      parse(
        '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {"name": "lookup_timezone", "arguments": {"city": "Tokyo"}}]</TOOLCALL>',
      ),
    ).toEqual([call('get_weather', { city: 'Tokyo' }), call('lookup_timezone', { city: 'Tokyo' })]);
  });

  it('reads <think> as reasoning where vLLM’s tool parser leaves it in the content for its reasoning parser', () => {
    const reply =
      '<think>\nI need the weather for Tokyo.\n</think>\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>';
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'I need the weather for Tokyo.' },
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Tokyo' }),
    ]);
  });
});

testChunkingInvariance({
  name: 'nemotron (malformed)',
  createParser: () => format.createParser(tools),
  samples: [
    '<TOOLCALL>[{"name": "broken", "arguments": {}</TOOLCALL>',
    'Let me check.<TOOLCALL>[{"name": "get_weather", "arguments": {}</TOOLCALL>',
  ],
  fragments: ['<TOOLCALL>', '</TOOLCALL>', '[{"name": "get_weather", "arguments": {}', '}]', '{"name": "broken"'],
});
