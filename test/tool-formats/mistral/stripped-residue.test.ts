/** Mistral replies whose control tokens a server removed: `NAME{…}` and the bare call list at the reply's start. */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { call, parseStripped, strippedWarning, testProseUntouched } from '../helpers/stripped-residue.js';
import { getTime, getWeather, standardTools } from '../helpers/tools.js';

const mistral = createToolFormatRegistry().get('mistral')!;
const parse = (text: string) => parseStripped('mistral', standardTools, text);
const paris = call('get_weather', { city: 'Paris' });

describe('mistral: a reply with its control tokens stripped', () => {
  it('reads NAME{…} at the reply start (v11 [TOOL_CALLS]NAME[ARGS]{…})', () => {
    expect(parse('get_weather{"city": "Paris"}')).toEqual([paris, strippedWarning]);
  });

  it('reads the next call glued after the first, and the call id of Mistral Small 3.2', () => {
    expect(parse('get_weather{"city": "Paris"}get_time{}')).toEqual([paris, call('get_time', {}), strippedWarning]);
    expect(parse('get_weatherAb3dE6gH9{"city": "Paris"}')).toEqual([{ ...paris, id: 'Ab3dE6gH9' }, strippedWarning]);
  });

  it('reads the older bare call list, and reports it', () => {
    expect(parse('[{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([paris, strippedWarning]);
    expect(parse(' [{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([
      { type: 'text', text: ' ' },
      paris,
      strippedWarning,
    ]);
  });

  it('prefers the longest offered name', () => {
    const get = { ...getTime, name: 'get' };
    expect(parseStripped('mistral', [get, getWeather], 'get_weather{"city": "Paris"}')).toEqual([paris, strippedWarning]);
    expect(parseStripped('mistral', [get, getWeather], 'get{}')).toEqual([call('get', {}), strippedWarning]);
  });

  it('leaves a name that is not offered, a name not at the start, and a name before a space, as text', () => {
    for (const text of [
      'search_flights{"to": "Paris"}',
      'Sure: get_weather{"city": "Paris"}',
      'get_weather {"city": "Paris"}',
      'get_weather is the tool.',
      '[1, 2, 3]',
      '[{"name": "Alice"}]',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('leaves replies with [TOOL_CALLS] as they were', () => {
    expect(parse('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}')).toEqual([paris]);
    expect(parse('[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]')).toEqual([paris]);
  });

  testProseUntouched('mistral', standardTools, ['get_weather', 'get_time', 'search_web', '{"city": "Paris"}', '[1]', 'get_weather{']);
});

testChunkingInvariance({
  name: 'mistral (stripped residue)',
  createParser: () => mistral.createParser(standardTools),
  samples: [
    'get_weather{"city": "Paris"}',
    'get_weather{"city": "Paris"}get_time{}',
    'get_weatherAb3dE6gH9{"city": "Paris"}',
    '[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
  ],
  fragments: [
    'get_weather',
    'get_time',
    'get_weather{"city": "Paris"}',
    'get_time{}',
    'Ab3dE6gH9',
    '[{"name": "get_time", "arguments": {}}]',
    '[TOOL_CALLS]',
  ],
});
