import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('functionary-v32');

testFamilyTable(format);

const parseAs = (family: string, text: string) => expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), text);

describe('functionary-v32: parsing', () => {
  it("reads the reply as following the template's >>>: a first recipient without the marker", () => {
    expect(parse('get_weather\n{"city": "Paris"}')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('all\nHello! How can I help?')).toEqual([{ type: 'text', text: 'Hello! How can I help?' }]);
  });

  it('reads text for the user and then calls, each after its own >>>', () => {
    expect(parse('all\nLet me check.>>>get_weather\n{"city": "Paris"}>>>get_time\n{}')).toEqual([
      { type: 'text', text: 'Let me check.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    // A model that writes the first marker itself (no template prefix) reads the same.
    expect(parse('>>>all\nHi>>>get_time\n{}')).toEqual([{ type: 'text', text: 'Hi' }, call('get_time', {})]);
  });

  it('keeps unicode, nesting and >>> inside strings', () => {
    expect(parse('create_event\n{"title": ">>>all\\n 🗓️ {x}", "options": {"remind": true}}')).toEqual([
      call('create_event', { title: '>>>all\n 🗓️ {x}', options: { remind: true } }),
    ]);
  });

  it('reads replies that ignore the format as text, and bare JSON calls', () => {
    expect(parse('Sure, here you go.')).toEqual([{ type: 'text', text: 'Sure, here you go.' }]);
    // Without a written >>>, a first line naming no offered tool is the answer, as bare JSON would be.
    expect(parse('Totals\n{"apples": 3}\nDone.')).toEqual([{ type: 'text', text: 'Totals\n{"apples": 3}\nDone.' }]);
    expect(parse('{"name": "get_time", "arguments": {}}')).toEqual([call('get_time', {})]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(parse('all\nOK>>>get_weather\n{"city": "Pa')).toMatchObject([
      { type: 'text', text: 'OK' },
      { type: 'tool-call-unparsed', format: 'functionary-v32', reason: 'unclosed' },
    ]);
  });
});

describe("functionary-v32: >>> in other families' replies", () => {
  it('keeps Python prompts and quote markers as text', () => {
    for (const text of ['Try it:\n>>> print(1)\n1\n>>>', 'a >>> b', '>>>>>> nested quote', 'ends with >>', '>>>get_weather then prose']) {
      expect(parseAs('hermes', text)).toEqual([{ type: 'text', text }]);
    }
  });

  // `>>>` opens like prose (a Python prompt, a quote), so it is no fallback marker for other families
  // (fallback-markers.ts): only Functionary v3.2's own parser reads it as a recipient.
  it('leaves a recipient call to the own family', () => {
    expect(parseAs('hermes', 'OK.\n>>>get_time\n{}')).toEqual([{ type: 'text', text: 'OK.\n>>>get_time\n{}' }]);
  });
});
