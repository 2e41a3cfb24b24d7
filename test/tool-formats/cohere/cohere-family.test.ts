import { describe, expect, it } from 'vitest';
import type { Message, ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from '../helpers/tools.js';
import { withoutCallIds } from '../mistral/without-call-ids.js';

const format = createToolFormatRegistry().get('cohere')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown, id?: string): ParsedEvent =>
  id === undefined
    ? { type: 'tool-call', name, arguments: JSON.stringify(callArguments) }
    : { type: 'tool-call', name, arguments: JSON.stringify(callArguments), id };
const textOf = (events: readonly ParsedEvent[]) => events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
const action = (...calls: string[]) => `<|START_ACTION|>[\n    ${calls.join(',\n    ')}\n]<|END_ACTION|>`;

// The contract compares calls without ids; the action's tool_call_id is the call's id (checked below).
testFamilyContract(withoutCallIds(format));

describe('cohere: rendering', () => {
  it('renders the template’s tool-use instructions and tool list', () => {
    expect(format.renderTools([documentedWeather, searchWeb], { type: 'auto' })).toMatchInlineSnapshot(`
      "## Tool Use
      Think about how you can make best use of the provided tools to help with the task and come up with a high level plan that you will execute first.

      0. Start by writing <|START_THINKING|> followed by a detailed step by step plan of how you will solve the problem. For each step explain your thinking fully and give details of required tool calls (if needed). Unless specified otherwise, you write your plan in natural language. When you finish, close it out with <|END_THINKING|>.
          You can optionally choose to skip this step when the user request is so straightforward to address that only a trivial plan would be needed.
          NOTE: You MUST skip this step when you are directly responding to the user's request without using any tools.

      Then carry out your plan by repeatedly executing the following steps.
      1. Action: write <|START_ACTION|> followed by a list of JSON-formatted tool calls, with each one containing "tool_name" and "parameters" fields.
          When there are multiple tool calls which are completely independent of each other (i.e. they can be executed in parallel), you should list them out all together in one step. When you finish, close it out with <|END_ACTION|>.
      2. Observation: you will then receive results of those tool calls in JSON format in the very next turn, wrapped around by <|START_TOOL_RESULT|> and <|END_TOOL_RESULT|>. Carefully observe those results and think about what to do next. Note that these results will be provided to you in a separate turn. NEVER hallucinate results.
          Every tool call produces a list of results (when a tool call produces no result or a single result, it'll still get wrapped inside a list). Each result is clearly linked to its originating tool call via its "tool_call_id".
      3. Reflection: start the next turn by writing <|START_THINKING|> followed by what you've figured out so far, any changes you need to make to your plan, and what you will do next. When you finish, close it out with <|END_THINKING|>.

      4. Response: then break out of the loop and write <|START_RESPONSE|> followed by a piece of text which serves as a response to the user's last request. Use all previous tool calls and results to help you when formulating your response. When you finish, close it out with <|END_RESPONSE|>.

      ## Available Tools
      Here is the list of tools that you have available to you.
      You can ONLY use the tools listed here. When a tool is not listed below, it is NOT available and you should NEVER attempt to use it.
      Each tool is represented as a JSON object with fields like "name", "description", "parameters" (per JSON Schema), and optionally, "responses" (per JSON Schema).

      \`\`\`json
      [
          {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}, "responses": null},
          {"name": "search_web", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "max_results": {"type": "integer", "minimum": 1, "maximum": 20}}, "required": ["query"]}, "responses": null}
      ]
      \`\`\`

      A tool call looks like this:
      <|START_ACTION|>[
          {"tool_call_id": "0", "tool_name": "tool_name", "parameters": {"parameter": "value"}}
      ]<|END_ACTION|>

      When to use the tools:
      - get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)

      Examples of tool calls:
      - get_weather: Weather in Paris
      <|START_ACTION|>[
          {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}
      ]<|END_ACTION|>
      - get_weather
      <|START_ACTION|>[
          {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Oslo", "unit": "celsius"}}
      ]<|END_ACTION|>"
    `);
  });

  it('renders history with ids numbered over the conversation and the tool-result list', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|START_ACTION|>[
          {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Oslo"}},
          {"tool_call_id": "1", "tool_name": "get_time", "parameters": {}}
      ]<|END_ACTION|>
      [user] <|START_TOOL_RESULT|>[{"tool_call_id": "0", "results": {"0": "-3 C, snow"}, "is_error": null}, {"tool_call_id": "1", "results": {"0": "error: clock unavailable"}, "is_error": true}]<|END_TOOL_RESULT|>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });

  it('numbers calls across turns whatever their ids, and pairs each result with its call', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', output: 'sunny' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: '0', name: 'get_time', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: '0', output: 'noon' }] },
    ];
    const texts = format.renderHistory(messages).map((message) => (message.content[0] as { text: string }).text);
    expect(texts[0]).toContain('"tool_call_id": "0"');
    expect(texts[1]).toContain('"tool_call_id": "0"');
    // The model's own "0" from the second turn is the conversation's second call.
    expect(texts[2]).toContain('"tool_call_id": "1"');
    expect(texts[3]).toContain('"tool_call_id": "1"');
  });
});

describe('cohere: Cohere2 MoE (North Code) replies', () => {
  // Its template opens <|START_THINKING|>; the answer is in <|START_TEXT|>, calls in the usual action list.
  const action = '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_time", "parameters": {}}]<|END_ACTION|>';

  it('reads the opened block, then an action, streamed or not', () => {
    expect(parse(`Plan it.<|END_THINKING|>${action}<|END_OF_TURN_TOKEN|>`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      call('get_time', {}, '0'),
    ]);
  });

  it('ends the block before the answer or an action when its close is missing, and drops the text tags', () => {
    expect(parse('Plan it.<|START_TEXT|>It is noon.<|END_TEXT|>', { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'text', text: 'It is noon.' },
    ]);
    expect(parse(`<|START_THINKING|>Plan it.${action}`)).toEqual([{ type: 'reasoning', text: 'Plan it.' }, call('get_time', {}, '0')]);
  });

  it('leaves <|START_TEXT|> to other families as text', () => {
    const hermes = createToolFormatRegistry().get('hermes')!;
    expect(expectChunkingInvariant(() => hermes.createParser(standardTools), '<|START_TEXT|>x')).toEqual([
      { type: 'text', text: '<|START_TEXT|>x' },
    ]);
  });
});

describe('cohere: parsing', () => {
  it('reads an action after the plan, keeping the model’s tool_call_id', () => {
    expect(
      parse(
        `<|START_THINKING|>I will search.<|END_THINKING|>${action('{"tool_call_id": "0", "tool_name": "search_web", "parameters": {"query": "cohere"}}')}`,
      ),
    ).toEqual([{ type: 'reasoning', text: 'I will search.' }, call('search_web', { query: 'cohere' }, '0')]);
  });

  it('reads parallel calls, nested and unicode parameters, and calls without ids', () => {
    expect(
      parse(
        action(
          '{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Montréal"}}',
          '{"tool_call_id": "1", "tool_name": "get_time", "parameters": {}}',
        ),
      ),
    ).toEqual([call('get_weather', { city: 'Montréal' }, '0'), call('get_time', {}, '1')]);
    expect(parse(action('{"tool_name": "create_event", "parameters": {"title": "Sync", "options": {"remind": true}}}'))).toEqual([
      call('create_event', { title: 'Sync', options: { remind: true } }),
    ]);
  });

  it('drops the response framing around an answer', () => {
    expect(
      parse('<|START_THINKING|>Easy.<|END_THINKING|><|START_RESPONSE|>Hello! How can I help?<|END_RESPONSE|><|END_OF_TURN_TOKEN|>'),
    ).toEqual([
      { type: 'reasoning', text: 'Easy.' },
      { type: 'text', text: 'Hello! How can I help?' },
    ]);
  });

  it('reports a cut-off action as unparsed and rejects unknown tools, keeping markup out of the text', () => {
    expect(parse('<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search_web", "parameters": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'cohere', reason: 'unclosed' },
    ]);
    const unknown = parse(`Sure.${action('{"tool_call_id": "0", "tool_name": "directly_answer", "parameters": {}}')}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('directly_answer');
    expect(parse('<|START_ACTION|>search the web<|END_ACTION|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('only calls the request’s tools', () => {
    expect(
      expectChunkingInvariant(() => format.createParser([getWeather]), action('{"tool_name": "search_web", "parameters": {}}')),
    ).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
  });
});

testChunkingInvariance({
  name: 'cohere',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<|START_THINKING|>plan <|START_ACTION|><|END_THINKING|>${action('{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}')}`,
    `<|START_RESPONSE|>Done: <|END_ACTION|> is a token.<|END_RESPONSE|>`,
    `${action('{"tool_name": "write_file", "parameters": {"path": "a", "content": "<|END_ACTION|>"}}')}<|START_ACTION|>[{"tool_name": "get_ti`,
  ],
  fragments: [
    '<|START_ACTION|>',
    '<|END_ACTION|>',
    '<|START_THINKING|>',
    '<|END_THINKING|>',
    '<|START_RESPONSE|>',
    '<|END_RESPONSE|>',
    '{"tool_call_id": "0", "tool_name": "get_time", "parameters": {}}',
  ],
});
