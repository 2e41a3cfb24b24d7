/** The muse-glimmer family: messages by recipient (`to=self` reasoning, `to=user` answer, tools in ATEM markup). */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const registry = createToolFormatRegistry();
const { format, parse, call } = familyUnderTest('muse-glimmer');

testFamilyTable(format);

const parameter = (key: string, value: string) => `<atem:parameter name="${key}">${value}</atem:parameter>`;
const toolMessage = (recipient: string, name: string, ...parameters: string[]) =>
  `<|start|>assistant to=${recipient}<|message|><atem:function_calls>\n<atem:invoke name="${name}">\n${parameters.map((line) => `${line}\n`).join('')}</atem:invoke>\n</atem:function_calls><|eom|>`;

describe('muse-glimmer: parsing', () => {
  it('reads a turn as the template frames it: reasoning, tool messages, then the answer', () => {
    expect(
      parse(
        ` to=self<|message|>Weather, then time.<|eom|>${toolMessage('get_weather', 'get_weather', parameter('city', 'Paris'))}${toolMessage('get_time', 'get_time')}`,
      ),
    ).toEqual([{ type: 'reasoning', text: 'Weather, then time.' }, call('get_weather', { city: 'Paris' }), call('get_time', {})]);
    expect(parse(' to=self<|message|>Easy.<|eom|><|start|>assistant to=user<|message|>It is sunny.<|eot|>')).toEqual([
      { type: 'reasoning', text: 'Easy.' },
      { type: 'text', text: 'It is sunny.' },
    ]);
    expect(parse(' to=user<|message|>Hello.<|eot|>')).toEqual([{ type: 'text', text: 'Hello.' }]);
  });

  it('types values by the schema, reads JSON values, and collapses a doubled recipient name', () => {
    expect(
      parse(toolMessage('search_web.search_web', 'search_web.search_web', parameter('query', '42'), parameter('max_results', '3'))),
    ).toEqual([call('search_web', { query: '42', max_results: 3 })]);
    expect(
      parse(
        toolMessage(
          'create_event',
          'create_event',
          parameter('title', 'x'),
          parameter('options', '{"remind": true}'),
          parameter('extra', '[1, 2]'),
        ),
      ),
    ).toEqual([call('create_event', { title: 'x', options: { remind: true }, extra: [1, 2] })]);
  });

  it('reads a tool message whose end token the server cut, and an ATEM invoke quoted in reasoning is no call', () => {
    expect(parse(toolMessage('get_time', 'get_time').replace('<|eom|>', ''))).toEqual([call('get_time', {})]);
    expect(
      parse(
        ` to=self<|message|>I could write <atem:invoke name="get_time"></atem:invoke>.<|eom|><|start|>assistant to=user<|message|>No.<|eot|>`,
      ),
    ).toEqual([
      { type: 'reasoning', text: 'I could write <atem:invoke name="get_time"></atem:invoke>.' },
      { type: 'text', text: 'No.' },
    ]);
  });

  it('reports a cut-off call as unparsed', () => {
    expect(
      parse(
        '<|start|>assistant to=search_web<|message|><atem:function_calls>\n<atem:invoke name="search_web">\n<atem:parameter name="query">ha',
      ),
    ).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
  });

  it('leaves GPT-OSS replies to Harmony’s grammar on the shared header', () => {
    const harmony = registry.get('harmony')!;
    const reply = '<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Oslo"}<|call|>';
    expect(expectChunkingInvariant(() => harmony.createParser(standardTools), reply)).toEqual([call('get_weather', { city: 'Oslo' })]);
    expect(parse(reply)).toEqual([call('get_weather', { city: 'Oslo' })]);
  });
});
