import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('granite-20b-fc');

testFamilyTable(format);

describe('granite-20b-fc: parsing', () => {
  it('reads calls one after another without closers, ending at the next <function_call> or the end of the reply', () => {
    const reply =
      '<function_call> {"name": "get_weather", "arguments": {"city": "San José"}} <function_call> {"name": "search_web", "arguments": {"query": "flights [SJC] \\"cheap\\"", "max_results": 2}}';
    const expected = [call('get_weather', { city: 'San José' }), call('search_web', { query: 'flights [SJC] "cheap"', max_results: 2 })];
    expect(parse(reply)).toEqual(expected);
    // Every family's parser reads it the same way (the marker is registered alike by llama3).
    for (const family of ['llama3', 'hermes', 'minimax-m2'])
      expect(
        expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), reply),
        family,
      ).toEqual(expected);
  });

  it("reads Llama's closed <function_call> tags too, with text before them", () => {
    expect(parse('I will look.\n<function_call>\n{"name": "get_time", "arguments": {}}\n</function_call>')).toEqual([
      { type: 'text', text: 'I will look.\n' },
      call('get_time', {}),
    ]);
  });

  it("rejects the template's no_function and never surfaces a cut-off call", () => {
    const cut = '<function_call> {"name": "get_weather", "arguments": {"city": "Lo';
    expect(parse(`<function_call> {"name": "get_time", "arguments": {}} ${cut}`)).toEqual([
      call('get_time', {}),
      { type: 'tool-call-unparsed', format: 'granite-20b-fc', text: cut, reason: 'unclosed' },
    ]);
  });
});
