import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { toolCallBegin, toolCallEnd, toolCallsBegin, toolCallsEnd, toolSeparator } from '../../../tool-formats/shared/deepseek-tokens.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('deepseek')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');

/** A V3 / R1 call block: the type, the name, and the arguments in a JSON fence. */
const v3Call = (name: string, json: string) =>
  `${toolCallBegin}function${toolSeparator}${name}\n` + '```json\n' + json + '\n```' + toolCallEnd;
/** A V3.1 call block: the name and the bare JSON. */
const v31Call = (name: string, json: string) => `${toolCallBegin}${name}${toolSeparator}${json}${toolCallEnd}`;
const section = (...calls: string[]) => toolCallsBegin + calls.join('') + toolCallsEnd;

testFamilyContract(format);

describe('deepseek: tokens', () => {
  it('uses the full-width bar U+FF5C and the U+2581 block, byte for byte', () => {
    expect(toolCallsBegin).toBe('<\uFF5Ctool\u2581calls\u2581begin\uFF5C>');
    expect(toolSeparator).toBe('<\uFF5Ctool\u2581sep\uFF5C>');
    expect(Buffer.from(toolCallEnd, 'utf8').toString('hex')).toBe('3cefbd9c746f6f6ce2968163616c6ce29681656e64efbd9c3e');
  });
});

describe('deepseek: rendering', () => {
  it('renders tools in the model card layout with the V3 / R1 call syntax', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'required' })).toMatchInlineSnapshot(`
      "## Tools
      You have access to the following tools:

      ### get_weather
      Description: Get the current weather for a city.

      Parameters: {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}

      ### search_web
      Description: Search the web and return the top results.

      Parameters: {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}

      IMPORTANT: ALWAYS adhere to this exact format for tool use:
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>tool_call_name
      \`\`\`json
      tool_call_arguments
      \`\`\`<｜tool▁call▁end｜>{additional_tool_calls}<｜tool▁calls▁end｜>

      Where:
      - \`tool_call_name\` must be an exact match to one of the available tools
      - \`tool_call_arguments\` must be valid JSON that strictly follows the tool's Parameters Schema
      - For multiple tool calls, chain them with a newline as separator, inside the one section

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
      \`\`\`json
      {"city": "Paris"}
      \`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>
      - get_weather
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
      \`\`\`json
      {"city": "Oslo", "unit": "celsius"}
      \`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>

      Tool results come back to you in the next user turn, all inside <｜tool▁outputs▁begin｜>…<｜tool▁outputs▁end｜>, each between <｜tool▁output▁begin｜> and <｜tool▁output▁end｜>. When no tool is needed, answer directly.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders one call as a section with a JSON fence', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toMatchInlineSnapshot(`
      "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
      \`\`\`json
      {"city": "Oslo"}
      \`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    `);
  });

  it('renders history with one section per turn and the template tool outputs', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
      \`\`\`json
      {"city": "Oslo"}
      \`\`\`<｜tool▁call▁end｜>
      <｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time
      \`\`\`json
      {}
      \`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>
      [user] <｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>-3 C, snow<｜tool▁output▁end｜>
      <｜tool▁output▁begin｜>Error: error: clock unavailable<｜tool▁output▁end｜><｜tool▁outputs▁end｜>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('deepseek: parsing', () => {
  it('reads the V3 / R1 fenced form, with text before it', () => {
    expect(
      parse(
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Hangzhou"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ),
    ).toEqual([call('get_weather', { city: 'Hangzhou' })]);
    expect(parse(`Let me look that up.\n${section(v3Call('search_web', '{"query": "latest LTS"}'))}`)).toEqual([
      { type: 'text', text: 'Let me look that up.\n' },
      call('search_web', { query: 'latest LTS' }),
    ]);
  });

  it('reads the V3.1 form', () => {
    expect(parse(section(v31Call('get_weather', '{"city": "Shenzhen", "unit": "celsius"}')))).toEqual([
      call('get_weather', { city: 'Shenzhen', unit: 'celsius' }),
    ]);
  });

  it('reads several calls of one section, in order', () => {
    expect(parse(section(v3Call('get_weather', '{"city": "Paris"}'), '\n', v3Call('get_time', '{}')))).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parse(section(v31Call('get_weather', '{"city": "Paris"}'), v31Call('search_web', '{"query": "Louvre"}')))).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('search_web', { query: 'Louvre' }),
    ]);
  });

  it('reads R1 reasoning, also when the template opened <think>', () => {
    expect(parse(`<think>Need fresh data.</think>\n\n${section(v3Call('search_web', '{"query": "latest LTS"}'))}`)).toEqual([
      { type: 'reasoning', text: 'Need fresh data.' },
      { type: 'text', text: '\n\n' },
      call('search_web', { query: 'latest LTS' }),
    ]);
    expect(parse(`The user wants the time.\n</think>\n\n${section(v3Call('get_time', '{}'))}`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'The user wants the time.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps unicode, nesting and fences inside strings', () => {
    expect(
      parse(
        section(
          v3Call('create_event', '{"title": "Sync {weekly} 🗓️", "attendees": ["a@x.io"], "options": {"remind": true, "minutes": 10}}'),
        ),
      ),
    ).toEqual([call('create_event', { title: 'Sync {weekly} 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } })]);
    expect(parse(section(v3Call('write_file', '{"path": "README.md", "content": "```\\nnaïve 日本語\\n```"}')))).toEqual([
      call('write_file', { path: 'README.md', content: '```\nnaïve 日本語\n```' }),
    ]);
  });

  it('reads a call written without its section, dropping stray section ends and end-of-sentence tokens', () => {
    expect(parse(`${v31Call('get_time', '{}')}${toolCallsEnd}<｜end▁of▁sentence｜>`)).toEqual([call('get_time', {})]);
  });

  it('reads the complete calls of a section whose end never came', () => {
    expect(parse(toolCallsBegin + v3Call('get_weather', '{"city": "Lima"}'))).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse(toolCallsBegin + v3Call('get_weather', '{"city": "Lima"}').replace(toolCallEnd, ''))).toEqual([
      call('get_weather', { city: 'Lima' }),
    ]);
  });

  it('reports a cut-off call as unparsed, never as a call', () => {
    const cut = `Searching.\n${toolCallsBegin}${toolCallBegin}function${toolSeparator}search_web\n` + '```json\n{"query": "no';
    expect(parse(cut)).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'deepseek', text: cut.slice('Searching.\n'.length), reason: 'unclosed' },
    ]);
    expect(parse(`${toolCallsBegin}${toolCallBegin}func`)).toMatchObject([{ type: 'tool-call-unparsed', reason: 'unclosed' }]);
    // A complete call before the cut-off one still counts; the cut-off one is reported.
    expect(
      parse(toolCallsBegin + v3Call('get_time', '{}') + `\n${toolCallBegin}function${toolSeparator}get_weather\n` + '```json\n{"ci'),
    ).toMatchObject([
      call('get_time', {}),
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.stringContaining('ended inside a call') },
    ]);
  });

  it('rejects unknown tools and malformed calls, keeping their markup out of the text', () => {
    const unknown = parse(`Sure.\n${section(v3Call('delete_all_files', '{}'))}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
    expect(parse(section(v3Call('get_weather', '{"city" "Paris"}')))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse(section(`${toolCallBegin}get the weather in Paris${toolCallEnd}`))).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
    expect(parse(section())).toMatchObject([{ type: 'tool-call-rejected', code: 'invalid_tool_syntax' }]);
  });

  it('keeps JSON answers and prose as text', () => {
    for (const text of [
      '```json\n{"name": "Alice", "age": 31}\n```',
      'Use <｜tool▁sep｜> between the name and the arguments.',
      'a <｜ b ▁ c',
    ]) {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    }
  });

  it('only makes calls to the tools of the request', () => {
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), section(v3Call('search_web', '{"query": "x"}')))).toMatchObject(
      [{ type: 'tool-call-rejected', code: 'unavailable_tool' }],
    );
  });
});

describe('deepseek: the section end token inside the arguments', () => {
  // The arguments are JSON: a value quoting the syntax (code, docs about DeepSeek) holds the tokens as text.
  it('keeps a section end inside a string of a V3.1 call, streamed or not', () => {
    const events = parse(`${section(v31Call('search_web', `{"query": "a ${toolCallsEnd} b"}`))} Done.`);
    expect(events).toEqual([call('search_web', { query: `a ${toolCallsEnd} b` }), { type: 'text', text: ' Done.' }]);
  });

  it('keeps a section end inside a string of a V3 fenced call, and the next call after it', () => {
    const events = parse(
      section(v3Call('write_file', `{"path": "x.md", "content": "${toolCallsEnd}\\n${toolCallsBegin}"}`), v3Call('get_time', '{}')),
    );
    expect(events).toEqual([call('write_file', { path: 'x.md', content: `${toolCallsEnd}\n${toolCallsBegin}` }), call('get_time', {})]);
  });

  it('keeps a call end inside a string of a call written without its section', () => {
    expect(parse(`${v31Call('search_web', `{"query": "${toolCallEnd}"}`)}!`)).toEqual([
      call('search_web', { query: toolCallEnd }),
      { type: 'text', text: '!' },
    ]);
  });

  it('still ends the section at its token outside a string when the object is left open (repaired)', () => {
    const events = parse(`${toolCallsBegin}${toolCallBegin}search_web${toolSeparator}{"query": "a"${toolCallsEnd} Sorry.`);
    expect(events).toEqual([call('search_web', { query: 'a' }), { type: 'text', text: ' Sorry.' }]);
  });
});

testChunkingInvariance({
  name: 'deepseek',
  createParser: () => format.createParser(standardTools),
  samples: [
    `Let me check.\n${section(v3Call('get_weather', '{"city": "Paris"}'), '\n', v3Call('get_time', '{}'))}\nDone.`,
    `<think>\nplan <｜tool▁calls▁begin｜>\n</think>\n\n${section(v31Call('write_file', '{"path": "a", "content": "<｜tool▁call▁end｜> ``` </think>"}'))}`,
    `${section(v3Call('nope', '{}'))}${v31Call('get_time', '{}')}${toolCallsEnd}${toolCallsBegin}${toolCallBegin}function${toolSeparator}get_ti`,
    // Found by fast-check: a chunk ending in what may be a marker (`<｜tool▁call`, the start of
    // `<｜tool▁calls▁begin｜>`) while the arguments' JSON value was still sought ended the seek.
    `${toolCallsBegin}${toolCallBegin}function${toolSeparator}get_ti${toolCallEnd}[get(${toolCallsBegin}`,
  ],
  fragments: [
    toolCallsBegin,
    toolCallsEnd,
    toolCallBegin,
    toolCallEnd,
    toolSeparator,
    'function',
    '```json\n{"city": "Rome"}\n```',
    v3Call('get_weather', '{"city": "Rome"}'),
    v31Call('search_web', '{"query": "a ``` b"}'),
    v31Call('search_web', `{"query": "${toolCallsEnd}${toolCallEnd}"}`),
    `${toolSeparator}{"a": "`,
    section(v31Call('delete_all', '{}')),
    '<｜end▁of▁sentence｜>',
  ],
});
