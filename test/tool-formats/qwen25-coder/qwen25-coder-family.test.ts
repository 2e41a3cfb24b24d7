/** The qwen25-coder family: Hermes' prompt, and the `<tools>{…}</tools>` Qwen2.5-Coder answers in (read only by its own parser). */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { historyTranscript } from '../helpers/family-contract.js';
import { documentedWeather, getWeather } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('qwen25-coder');

testFamilyTable(format);

const tools = (json: string) => `<tools>\n${json}\n</tools>`;

describe('qwen25-coder: rendering', () => {
  it('writes Hermes’ prompt and history, as Qwen2.5-Coder’s template does', () => {
    const hermes = registry.get('hermes')!;
    expect(format.renderTools([documentedWeather], { type: 'auto' })).toBe(hermes.renderTools([documentedWeather], { type: 'auto' }));
    expect(historyTranscript(format)).toBe(historyTranscript(hermes));
  });
});

describe('qwen25-coder: parsing', () => {
  it('reads one object, a list, and one object per line (with or without commas) in <tools>', () => {
    expect(parse(`Sure.\n${tools('{"name": "get_weather", "arguments": {"city": "Paris"}}')}`)).toEqual([
      { type: 'text', text: 'Sure.\n' },
      call('get_weather', { city: 'Paris' }),
    ]);
    expect(parse(tools('[{"name": "get_time", "arguments": {}}, {"name": "search_web", "arguments": {"query": "東京"}}]'))).toEqual([
      call('get_time', {}),
      call('search_web', { query: '東京' }),
    ]);
    expect(
      parse(
        tools('{"name": "get_time", "arguments": {}},\n{"name": "create_event", "arguments": {"title": "x", "options": {"remind": true}}}'),
      ),
    ).toEqual([call('get_time', {}), call('create_event', { title: 'x', options: { remind: true } })]);
  });

  it('still reads Hermes’ <tool_call> blocks, and a complete body whose </tools> never came', () => {
    expect(parse('<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>')).toEqual([call('get_time', {})]);
    expect(parse('<tools>{"name": "get_weather", "arguments": {"city": "Oslo"}}')).toEqual([call('get_weather', { city: 'Oslo' })]);
  });

  it('reads <function name="NAME">{json}</function>, as llama.cpp’s Hermes 2 Pro parser reads Qwen2.5-Coder’s replies', () => {
    expect(parse('<function name="get_weather">\n{"city": "Paris"}\n</function>')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('Sure. <function name=\'write_file\'>{"path": "a.html", "content": "</function>"}</function> ok')).toEqual([
      { type: 'text', text: 'Sure. ' },
      call('write_file', { path: 'a.html', content: '</function>' }),
      { type: 'text', text: ' ok' },
    ]);
  });

  it('keeps the close tag inside a string, and reads reasoning first', () => {
    expect(parse(tools('{"name": "write_file", "arguments": {"path": "a.html", "content": "</tools>"}}'))).toEqual([
      call('write_file', { path: 'a.html', content: '</tools>' }),
    ]);
    expect(
      parse(`Weather.</think>${tools('{"name": "get_weather", "arguments": {"city": "Rome"}}')}`, { startsInReasoning: true }),
    ).toEqual([{ type: 'reasoning', text: 'Weather.' }, call('get_weather', { city: 'Rome' })]);
  });

  it('is the only parser that reads <tools>: for every other family it is text', () => {
    const reply = `The list goes in ${tools('{"name": "get_weather", "arguments": {"city": "Paris"}}')} tags.`;
    for (const family of ['hermes', 'qwen3-coder', 'glm', 'generic-json']) {
      const events = expectChunkingInvariant(
        () => registry.get(family)!.createParser([getWeather]),
        `Hermes lists tools in <tools>…</tools> tags.`,
      );
      expect(events).toEqual([{ type: 'text', text: 'Hermes lists tools in <tools>…</tools> tags.' }]);
      expect(
        expectChunkingInvariant(() => registry.get(family)!.createParser([getWeather]), reply).filter(
          (event) => event.type === 'tool-call-rejected',
        ),
      ).toEqual([]);
    }
  });
});
