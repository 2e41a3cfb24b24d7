import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { getWeather, searchWeb, standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('granite');

testFamilyTable(format);

describe('granite: a bare call list at the very start of the reply', () => {
  // vLLM's granite parser takes a list without `<|tool_call|>` at the reply's start; Granite 3.3 writes
  // Python calls in it. A list is a call only when it names an offered tool: prose in brackets stays text.
  it('reads a bare pythonic list and a bare JSON list, after reasoning too', () => {
    expect(parse('[get_weather(city="Paris"), get_time()]\nDone.')).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
      { type: 'text', text: '\nDone.' },
    ]);
    expect(parse('[{"name": "get_time", "arguments": {}}]')).toEqual([call('get_time', {})]);
    expect(parse('<think>plan</think><response>[get_time()]</response>')).toEqual([
      { type: 'reasoning', text: 'plan' },
      call('get_time', {}),
    ]);
  });

  it('keeps prose that starts with a bracket, and a list naming no offered tool, as text in every family', () => {
    for (const family of ['granite', 'hermes', 'llama3', 'mistral', 'generic-json']) {
      const reply = '[Note] print(1) is Python.\n[delete_all(force=True)]';
      const events = expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), reply);
      expect(events, family).toEqual([{ type: 'text', text: reply }]);
    }
  });
});

describe('granite: a reply that begins inside the thought process', () => {
  it.each(['Here is my response:', "Here's my response:"])('ends the opened block at %j, streamed or not', (close) => {
    const parser = () => format.createParser(standardTools, { startsInReasoning: true });
    expect(expectChunkingInvariant(parser, `Plan it.\n${close}<|tool_call|>[{"name": "get_time", "arguments": {}}]`)).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      call('get_time', {}),
    ]);
  });
});

describe('granite: parsing', () => {
  it("reads the Granite 3.0 <|tool_call|> list running to the end of the reply, and 3.1's <tool_call> spelling", () => {
    const expected = [call('get_weather', { city: 'Boston' }), call('search_web', { query: 'Boston events', max_results: 3 })];
    const list =
      '[{"name": "get_weather", "arguments": {"city": "Boston"}}, {"name": "search_web", "arguments": {"query": "Boston events", "max_results": 3}}]';
    expect(parse(`<|tool_call|>${list}`)).toEqual(expected);
    expect(parse(`<tool_call>${list}`)).toEqual(expected);
    // The Hermes closer some builds write is read too: one marker, one way of scanning.
    expect(parse(`<|tool_call|>${list}</|tool_call|>\nDone.`)).toEqual([...expected, { type: 'text', text: '\nDone.' }]);
  });

  it('reads Granite 3.2\'s "Here is my thought process:" reasoning, and the "Here\'s" spelling of quantised builds', () => {
    const reply =
      'Here is my thought process:\nThe user wants the weather in Zürich 🌧️.\nHere is my response:\n<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Zürich"}}]';
    expect(parse(reply)).toEqual([
      { type: 'reasoning', text: 'The user wants the weather in Zürich 🌧️.' },
      { type: 'text', text: '\n' },
      call('get_weather', { city: 'Zürich' }),
    ]);
    expect(parse("Here's my thought process: short. Here's my response: It is sunny.")).toEqual([
      { type: 'reasoning', text: ' short. ' },
      { type: 'text', text: ' It is sunny.' },
    ]);
  });

  it("reads Granite 3.3's <think> and drops its <response> framing", () => {
    expect(parse('<think>Look it up.</think><response>Checking.\n<|tool_call|>[{"name": "get_time", "arguments": {}}]</response>')).toEqual(
      [{ type: 'reasoning', text: 'Look it up.' }, { type: 'text', text: 'Checking.\n' }, call('get_time', {})],
    );
  });

  it("keeps the reasoning phrases and <response> as text in other families' parsers", () => {
    const prose = 'Here is my thought process: I compared both. Here is my response: <response> tags are fine.';
    for (const family of ['hermes', 'granite4', 'llama3']) {
      expect(
        expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), prose),
        family,
      ).toEqual([{ type: 'text', text: prose }]);
    }
  });

  it('rejects unknown tools without leaking the markup, and never surfaces a cut-off list', () => {
    const unknown = parse('Sure.\n<|tool_call|>[{"name": "delete_all_files", "arguments": {}}]');
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
    const cut = '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Par';
    expect(parse(`Checking.\n${cut}`)).toEqual([
      { type: 'text', text: 'Checking.\n' },
      { type: 'tool-call-unparsed', format: 'granite', text: cut, reason: 'unclosed' },
    ]);
  });

  it('keeps a JSON answer as text', () => {
    const answer = '```json\n{"name": "Alice", "age": 31}\n```';
    expect(expectChunkingInvariant(() => format.createParser([getWeather, searchWeb]), answer)).toEqual([{ type: 'text', text: answer }]);
  });
});
