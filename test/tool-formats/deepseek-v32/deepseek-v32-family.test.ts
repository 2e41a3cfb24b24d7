import { describe, expect, it } from 'vitest';
import {
  functionCallsClose,
  functionCallsOpen,
  invokeClose,
  parameterClose,
  toolCallsClose,
  toolCallsOpen,
} from '../../../tool-formats/shared/dsml-tokens.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('deepseek-v32');

testFamilyTable(format);

const parameter = (name: string, value: string, string: boolean | undefined = true) =>
  `<｜DSML｜parameter name="${name}"${string === undefined ? '' : ` string="${string}"`}>${value}${parameterClose}`;
const invoke = (name: string, ...parameters: string[]) => `<｜DSML｜invoke name="${name}">\n${parameters.join('\n')}\n${invokeClose}`;
const section = (...invokes: string[]) => `${functionCallsOpen}\n${invokes.join('\n')}\n${functionCallsClose}`;

describe('deepseek-v32: tokens', () => {
  it('uses the full-width bar U+FF5C, byte for byte', () => {
    expect(functionCallsOpen).toBe('<\uFF5CDSML\uFF5Cfunction_calls>');
    expect(Buffer.from(toolCallsClose, 'utf8').toString('hex')).toBe('3c2fefbd9c44534d4cefbd9c746f6f6c5f63616c6c733e');
  });
});

describe('deepseek-v32: rendering', () => {
  it('renders a turn of calls as one section, strings as they are and other values as JSON, results as <function_results>', () => {
    expect(format.renderCall({ name: 'search_web', arguments: '{"query":"a < b","max_results":3}' })).toMatchInlineSnapshot(`
      "<｜DSML｜function_calls>
      <｜DSML｜invoke name="search_web">
      <｜DSML｜parameter name="query" string="true">a < b</｜DSML｜parameter>
      <｜DSML｜parameter name="max_results" string="false">3</｜DSML｜parameter>
      </｜DSML｜invoke>
      </｜DSML｜function_calls>"
    `);
  });
});

describe('deepseek-v32: parsing', () => {
  it('reads the vLLM docstring example: two invokes, Chinese values', () => {
    const reply = section(
      invoke('get_weather', parameter('city', '杭州'), parameter('unit', 'celsius')),
      invoke('get_weather', parameter('city', '北京')),
    );
    expect(parse(reply)).toEqual([call('get_weather', { city: '杭州', unit: 'celsius' }), call('get_weather', { city: '北京' })]);
  });

  it('converts values with the tool schema first, then the string attribute', () => {
    expect(parse(section(invoke('search_web', parameter('query', '42'), parameter('max_results', '5', false))))).toEqual([
      call('search_web', { query: '42', max_results: 5 }),
    ]);
    // A string parameter marked string="false" stays the string the schema asks for.
    expect(parse(section(invoke('write_file', parameter('path', '007', false), parameter('content', '{"a": 1}', false))))).toEqual([
      call('write_file', { path: '007', content: '{"a": 1}' }),
    ]);
    expect(
      parse(
        section(
          invoke(
            'create_event',
            parameter('title', 'Sync'),
            parameter('attendees', '["a@x.io"]', false),
            parameter('options', '{"remind": true, "minutes": 10}', false),
          ),
        ),
      ),
    ).toEqual([call('create_event', { title: 'Sync', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
  });

  it('keeps values verbatim: newlines, markup and the section end inside a value', () => {
    const content = `line 1\n  ${functionCallsClose} </｜DSML｜invoke> "q" \`x\`\n`;
    expect(parse(section(invoke('write_file', parameter('path', 'a.md'), parameter('content', content))))).toEqual([
      call('write_file', { path: 'a.md', content }),
    ]);
  });

  it("reads V4's <｜DSML｜tool_calls> section, text before it and reasoning", () => {
    expect(
      parse(
        `<think>Need the time.</think>\n\nChecking.\n\n${toolCallsOpen}\n${invoke('get_time')}\n${toolCallsClose}<｜end▁of▁sentence｜>`,
      ),
    ).toEqual([{ type: 'reasoning', text: 'Need the time.' }, { type: 'text', text: '\n\nChecking.\n\n' }, call('get_time', {})]);
    expect(parse(`The user asks for the time.</think>${section(invoke('get_time'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user asks for the time.' },
      call('get_time', {}),
    ]);
  });

  it('keeps the closed invokes of a section whose end never came, and reports the cut-off one', () => {
    expect(parse(`${functionCallsOpen}\n${invoke('get_time')}\n`)).toEqual([call('get_time', {})]);
    expect(
      parse(`${functionCallsOpen}\n${invoke('get_time')}\n<｜DSML｜invoke name="get_weather">\n${parameter('city', 'Pa')}`),
    ).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.stringContaining('ended inside a call') },
    ]);
    const cut = `Let me see.\n${functionCallsOpen}\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Pa`;
    expect(parse(cut)).toEqual([
      { type: 'text', text: 'Let me see.\n' },
      { type: 'tool-call-unparsed', format: 'deepseek-v32', text: cut.slice('Let me see.\n'.length), reason: 'unclosed' },
    ]);
  });

  it('rejects malformed invokes, keeping their markup out of the text', () => {
    // Only a value's own close ends it, so an unclosed value runs to the end of the reply.
    expect(parse(section(invoke('get_weather', '<｜DSML｜parameter name="city" string="true">Paris')))).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(section(invoke('get_weather', parameter('city', 'Paris')), 'stray text', invoke('get_time')))).toMatchObject([
      call('get_weather', { city: 'Paris' }),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
      call('get_time', {}),
    ]);
  });
});
