import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/core/index.js';
import { quoteDelimitedStrings } from '../../../tool-formats/gemma/delimited-call-grammar.js';
import { renderPythonType } from '../../../tool-formats/gemma/python-signature.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { documentedWeather, getTime, getWeather, searchWeb } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('gemma');

testFamilyTable(format);

/** Enums, defaults, optionals (declared before a required one), nullable, unions, arrays and a nested object. */
const planTrip: ToolDefinition = {
  name: 'plan_trip',
  description: 'Plan a trip.\nReturns an itinerary.',
  parameters: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['train', 'plane', 'car'], default: 'train', description: 'How to travel' },
      destination: { type: 'string', description: 'City or region' },
      nights: { type: 'integer', default: 2 },
      travellers: { type: 'array', items: { type: 'string' } },
      budget: { anyOf: [{ type: 'number' }, { type: 'string', enum: ['low', 'high'] }] },
      preferences: {
        type: 'object',
        description: 'Optional extras.',
        properties: { window_seat: { type: 'boolean' }, meals: { type: 'array', items: { type: 'string' } } },
        required: ['window_seat'],
      },
      notes: { type: 'string', nullable: true },
    },
    required: ['destination', 'travellers'],
  },
};

describe('gemma: rendering', () => {
  it('renders tools as Python stubs and asks for tool_code blocks', () => {
    expect(format.renderTools([documentedWeather, getTime, planTrip], { type: 'required' })).toMatchInlineSnapshot(`
      "You have access to the Python functions below. They are already imported; use only these.

      \`\`\`python
      def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = None):
          """Get the current weather for a city.

          Args:
            city: City name
          """

      def get_time():
          """Get the current UTC time."""

      def plan_trip(destination: str, travellers: list[str], mode: Literal["train", "plane", "car"] = "train", nights: int = 2, budget: float | Literal["low", "high"] = None, preferences: dict = None, notes: str | None = None):
          """Plan a trip.
          Returns an itinerary.

          Args:
            destination: City or region
            mode: How to travel
            preferences: Optional extras. A dict {"window_seat": bool, "meals" (optional): list[str]}.
          """
      \`\`\`

      To call functions, reply with a tool_code block holding one call per line, with keyword arguments and Python literal values (strings in quotes, numbers, True, False, None, lists and dicts):
      \`\`\`tool_code
      function_name(argument_name="value")
      \`\`\`
      When no function is needed, answer in plain text. Never write a tool_output block yourself.

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      \`\`\`tool_code
      get_weather(city="Paris")
      \`\`\`
      - get_weather
      \`\`\`tool_code
      get_weather(city="Oslo", unit="celsius")
      \`\`\`

      Function results come back to you in the next user turn, each in a tool_output block holding {"name": function name, "output": result}. Use them to call more functions or to answer.

      You must call at least one tool in this reply; do not answer without a tool call."
    `);
  });

  it('renders schema types as Python type hints', () => {
    expect(renderPythonType({ type: 'string', enum: ['a', 'b'] })).toBe('Literal["a", "b"]');
    expect(renderPythonType({ type: ['integer', 'null'] })).toBe('int | None');
    expect(renderPythonType({ type: 'array', items: { type: 'number' } })).toBe('list[float]');
    expect(renderPythonType({ type: 'boolean', nullable: true })).toBe('bool | None');
    expect(renderPythonType({ type: 'object' })).toBe('dict');
    expect(renderPythonType({ const: true })).toBe('Literal[True]');
    expect(renderPythonType({})).toBe('Any');
  });

  it('renders one call, and parallel calls in one block', () => {
    expect(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo","days":3,"exact":true,"extra":null}' }))
      .toMatchInlineSnapshot(`
      "\`\`\`tool_code
      get_weather(city="Oslo", days=3, exact=True, extra=None)
      \`\`\`"
    `);
    const [turn] = format.renderHistory([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool-call', id: 'b', name: 'get_time', arguments: '{}' },
        ],
      },
    ]);
    expect(turn).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "\`\`\`tool_code
      get_weather(city="Oslo")
      get_time()
      \`\`\`",
            "type": "text",
          },
        ],
        "role": "assistant",
      }
    `);
  });

  it('escapes fences inside string values, so no fence reader sees the block close', () => {
    const rendered = format.renderCall({ name: 'write_file', arguments: JSON.stringify({ path: 'a.md', content: '```ts\nx\n````' }) });
    expect(rendered).toBe('```tool_code\nwrite_file(path="a.md", content="\\x60\\x60\\x60ts\\nx\\n\\x60\\x60\\x60\\x60")\n```');
    expect(parse(rendered)).toEqual([call('write_file', { path: 'a.md', content: '```ts\nx\n````' })]);
  });
});

describe('gemma: parsing tool_code blocks', () => {
  it('reads a Python call, and text before it', () => {
    expect(parse('```tool_code\nget_weather(city="Paris", unit="celsius")\n```')).toEqual([
      call('get_weather', { city: 'Paris', unit: 'celsius' }),
    ]);
    expect(parse("Let me look.\n```tool_code\nsearch_web(query='gemma 3', max_results=3)\n```")).toEqual([
      { type: 'text', text: 'Let me look.\n' },
      call('search_web', { query: 'gemma 3', max_results: 3 }),
    ]);
  });

  it('reads a JSON call (the conformance reply) and a JSON list', () => {
    expect(parse('```tool_code\n{"name": "get_time", "arguments": {}}\n```')).toEqual([call('get_time', {})]);
    expect(
      parse('```tool_code\n[{"name": "get_time", "arguments": {}}, {"name": "get_weather", "parameters": {"city": "Oslo"}}]\n```'),
    ).toEqual([call('get_time', {}), call('get_weather', { city: 'Oslo' })]);
  });

  it('reads several calls, one per line or in a list', () => {
    const expected = [call('get_weather', { city: 'Paris' }), call('get_time', {})];
    expect(parse('```tool_code\nget_weather(city="Paris")\nget_time()\n```')).toEqual(expected);
    expect(parse('```tool_code\n[get_weather(city="Paris"), get_time()]\n```')).toEqual(expected);
    expect(parse('```tool_code\nget_weather(city="Paris")\n```\n```tool_code\nget_time()\n```')).toEqual([
      expected[0],
      { type: 'text', text: '\n' },
      expected[1],
    ]);
  });

  it("takes off Gemini's print(default_api.…) wrapping", () => {
    expect(parse('```tool_code\nprint(default_api.get_weather(city="Paris"))\n```')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('```tool_code\nprint(get_weather(city="Rome"))\nprint(default_api.get_time())\n```')).toEqual([
      call('get_weather', { city: 'Rome' }),
      call('get_time', {}),
    ]);
  });

  it('keeps nested values, Python literals, unicode and fences inside strings', () => {
    expect(
      parse(
        '```tool_code\ncreate_event(title="Sync 🗓️ naïve", attendees=["a@x.io"], options={"remind": True, "minutes": 10, "x": None})\n```',
      ),
    ).toEqual([call('create_event', { title: 'Sync 🗓️ naïve', attendees: ['a@x.io'], options: { remind: true, minutes: 10, x: null } })]);
    expect(parse('```tool_code\nwrite_file(path="README.md", content="# Title\\n```bash\\nnpm i\\n```\\n")\n```')).toEqual([
      call('write_file', { path: 'README.md', content: '# Title\n```bash\nnpm i\n```\n' }),
    ]);
    expect(parse('```tool_code\npython("print(1)")\n```')).toEqual([call('python', { code: 'print(1)' })]);
  });

  it('rejects unknown tools, keeping their markup out of the text', () => {
    const unknown = parse('Sure.\n```tool_code\ndelete_all_files(confirm=True)\n```');
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.\n' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('delete_all_files');
  });

  it('reads a complete call in an unclosed block, and reports a cut-off one as unclosed', () => {
    expect(parse('```tool_code\nget_weather(city="Lima")\n')).toEqual([call('get_weather', { city: 'Lima' })]);
    expect(parse('Searching.\n```tool_code\nsearch_web(query="tokyo popu')).toEqual([
      { type: 'text', text: 'Searching.\n' },
      { type: 'tool-call-unparsed', format: 'gemma', text: '```tool_code\nsearch_web(query="tokyo popu', reason: 'unclosed' },
    ]);
  });

  it("reads the bare Python list and JSON of Google's other Gemma prompts", () => {
    expect(parse('[get_weather(city="Paris")]')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('{"name": "get_weather", "parameters": {"city": "Paris"}}')).toEqual([call('get_weather', { city: 'Paris' })]);
  });

  it('keeps other code blocks, JSON answers and prose as text, and drops leaked turn tokens', () => {
    expect(parse('It is sunny.<end_of_turn>')).toEqual([{ type: 'text', text: 'It is sunny.' }]);
  });
});

describe('gemma: parsing Gemma 4 and FunctionGemma calls', () => {
  it('reads <|tool_call>call:NAME{…}<tool_call|> with <|"|> strings', () => {
    expect(parse('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>')).toEqual([
      call('get_weather', { city: 'Paris', unit: 'celsius' }),
    ]);
    expect(
      parse('<|tool_call>call:search_web{query:<|"|>say "hi", it\'s {ok} \\n<|"|>,max_results:5}<tool_call|><|tool_response>'),
    ).toEqual([call('search_web', { query: 'say "hi", it\'s {ok} \\n', max_results: 5 })]);
  });

  it('reads nested values, unicode and markers inside strings', () => {
    expect(
      parse(
        '<|tool_call>call:create_event{title:<|"|>Réunion 🗓️ <tool_call|><|"|>,attendees:[<|"|>a@x.io<|"|>,<|"|>b@x.io<|"|>],options:{remind:true,minutes:10}}<tool_call|>',
      ),
    ).toEqual([
      call('create_event', { title: 'Réunion 🗓️ <tool_call|>', attendees: ['a@x.io', 'b@x.io'], options: { remind: true, minutes: 10 } }),
    ]);
  });

  it('reads thought reasoning, repeated blocks, <turn|> as the end, and JSON-quoted arguments', () => {
    expect(
      parse(
        '<|channel>thought\nTwo calls.<channel|><|tool_call>call:get_time{}<tool_call|><|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<turn|>',
      ),
    ).toEqual([{ type: 'reasoning', text: 'Two calls.' }, call('get_time', {}), call('get_weather', { city: 'Oslo' })]);
    expect(parse('<|tool_call>call:get_weather{"city":"Paris"}<tool_call|>')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parse('<|tool_call>call:get_time{}<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>')).toEqual([
      call('get_time', {}),
      call('get_weather', { city: 'Oslo' }),
    ]);
  });

  it('reads FunctionGemma calls with <escape> strings', () => {
    expect(
      parse(
        '<start_function_call>call:get_weather{city:<escape>Zürich<escape>,unit:<escape>celsius<escape>}<end_function_call><start_function_response>',
      ),
    ).toEqual([call('get_weather', { city: 'Zürich', unit: 'celsius' })]);
  });

  it('reports cut-off calls as unclosed', () => {
    for (const text of [
      '<|tool_call>call:get_weather{city:<|"|>Par',
      '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>',
      '<|tool_call>call:get_wea',
    ]) {
      expect(parse(text)).toEqual([{ type: 'tool-call-unparsed', format: 'gemma', text, reason: 'unclosed' }]);
    }
  });

  it('turns delimited strings into JSON string literals', () => {
    expect(quoteDelimitedStrings('{a:<|"|>x "y"\\<|"|>,b:1}', '<|"|>')).toBe('{a:"x \\"y\\"\\\\",b:1}');
    expect(quoteDelimitedStrings('{a:<|"|>open', '<|"|>')).toBeUndefined();
  });

  it('only makes calls to the tools of the request', () => {
    const onlyWeather = () => format.createParser([getWeather]);
    expect(expectChunkingInvariant(onlyWeather, '```tool_code\nsearch_web(query="x")\n```')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(expectChunkingInvariant(() => format.createParser([searchWeb]), '```tool_code\nsearch_web(query="x")\n```')).toEqual([
      call('search_web', { query: 'x' }),
    ]);
  });
});
