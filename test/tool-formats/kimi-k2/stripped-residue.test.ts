/** Kimi K2 replies whose special tokens a server removed: `functions.NAME:IDX{…}` read as calls. */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { call, parseStripped, strippedWarning, testProseUntouched } from '../helpers/stripped-residue.js';
import { standardTools } from '../helpers/tools.js';

const kimi = createToolFormatRegistry().get('kimi-k2')!;
const parse = (text: string) => parseStripped('kimi-k2', standardTools, text);
const paris = call('get_weather', { city: 'Paris' }, 'functions.get_weather:0');

describe('kimi-k2: a reply with its special tokens stripped', () => {
  it('reads functions.NAME:IDX{…} as a call with its id, after text or alone', () => {
    expect(parse('functions.get_weather:0{"city": "Paris"}')).toEqual([paris, strippedWarning]);
    expect(parse('Let me check.functions.get_weather:0{"city": "Paris"}')).toEqual([
      { type: 'text', text: 'Let me check.' },
      paris,
      strippedWarning,
    ]);
  });

  it('reads several calls and the text after them', () => {
    expect(parse('functions.get_weather:0{"city": "Paris"}functions.get_time:1{} Done.')).toEqual([
      paris,
      call('get_time', {}, 'functions.get_time:1'),
      { type: 'text', text: ' Done.' },
      strippedWarning,
    ]);
  });

  it('keeps a tool that is not offered in the text, and reports the stripping', () => {
    expect(parse('functions.book_flight:0{"to": "Paris"}')).toEqual([
      { type: 'text', text: 'functions.book_flight:0{"to": "Paris"}' },
      strippedWarning,
    ]);
  });

  it('leaves prose, ids without arguments and replies with their tokens as they were', () => {
    for (const text of [
      'Call functions.get_weather:0 with a city.',
      'functions.get_weather is offered.',
      'see functions.get_weather: {"a": 1}',
      'functions.get_weather:0 {"city": "Paris"}',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
    expect(
      parse(
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
      ),
    ).toEqual([paris]);
  });

  testProseUntouched('kimi-k2', standardTools, [
    'functions.get_weather',
    'functions.get_weather:0',
    'get_weather',
    '{city}',
    '{ city }',
    '{}',
    ':0',
  ]);
});

testChunkingInvariance({
  name: 'kimi-k2 (stripped residue)',
  createParser: () => kimi.createParser(standardTools),
  samples: ['Let me check.functions.get_weather:0{"city": "Paris"}functions.get_time:1{}', 'functions.book_flight:0{"to": "Paris"}'],
  fragments: [
    'functions.',
    'functions.get_weather:0',
    'functions.get_time:1{}',
    '{"city": "Paris"}',
    ':0',
    '<|tool_call_begin|>',
    '<|tool_call_argument_begin|>',
  ],
});
