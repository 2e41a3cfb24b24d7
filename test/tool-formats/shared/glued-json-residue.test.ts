/** Llama 3, Granite 3 and InternLM replies whose call marker a server removed: the JSON call glued to the text. */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { call, parseStripped, strippedWarning, testProseUntouched } from '../helpers/stripped-residue.js';
import { standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const paris = call('get_weather', { city: 'Paris' });
const objectCall = '{"name": "get_weather", "parameters": {"city": "Paris"}}';
const listCall = '[{"name": "get_weather", "arguments": {"city": "Paris"}}]';

describe.each(['llama3', 'granite', 'internlm'])('%s: a call whose marker was stripped', (family) => {
  const parse = (text: string) => parseStripped(family, standardTools, text);

  it.each([objectCall, listCall, '{"type": "function", "name": "get_weather", "parameters": {"city": "Paris"}}'])(
    'reads %s glued to the sentence before it',
    (json) => {
      expect(parse(`Let me check.${json}`)).toEqual([{ type: 'text', text: 'Let me check.' }, paris, strippedWarning]);
    },
  );

  it('reads the text after the call as text', () => {
    expect(parse(`Checking:${objectCall} One moment.`)).toEqual([
      { type: 'text', text: 'Checking:' },
      paris,
      { type: 'text', text: ' One moment.' },
      strippedWarning,
    ]);
  });

  it('keeps a call on its own line or at the start as the bare call it always was, with no warning', () => {
    expect(parse(objectCall)).toEqual([paris]);
    expect(parse(`Let me check.\n${objectCall}`)).toEqual([{ type: 'text', text: 'Let me check.\n' }, paris]);
  });

  it('leaves JSON that is quoted, spaced off, or no call to an offered tool, as text', () => {
    for (const text of [
      'Write it as `{"name": "get_weather"}` please.',
      'The payload "{"name": "get_weather"}" is wrong.',
      'Use this: {"name": "get_weather", "parameters": {}} and so on.',
      'Alice.{"name": "Alice", "age": 31}',
      'Booking.{"name": "book_flight", "parameters": {}}',
      'see (x){"name" : 1}',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  testProseUntouched(family, standardTools, ['get_weather', '{"name": "get_weather"}', '{"city": "Paris"}', '[1]', 'x{}', 'a[b]']);
});

for (const family of ['llama3', 'granite', 'internlm']) {
  const format = registry.get(family)!;
  testChunkingInvariance({
    name: `${family} (stripped residue)`,
    createParser: () => format.createParser(standardTools),
    samples: [`Let me check.${objectCall}`, `Checking:${listCall} One moment.`, 'Alice.{"name": "Alice", "age": 31}'],
    fragments: ['.', 'Sure:', objectCall, listCall, '{"name": "get_weather"', '{"name": "Alice"}', '[{', '{"type": "function", '],
    numRuns: 150,
  });
}
