/** The inkling family: TML typed blocks, tool blocks `<|message_model|>NAME<|content_invoke_tool_json|>{"name", "args"}<|end_message|>`. */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { historyTranscript, testFamilyContract } from '../helpers/family-contract.js';
import { getWeather, standardTools } from '../helpers/tools.js';

const format = createToolFormatRegistry().get('inkling')!;
const parse = (text: string, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const toolBlock = (name: string, args: string, header = '<|message_model|>') =>
  `${header}${name}<|content_invoke_tool_json|>{"name": "${name}", "args": ${args}}<|end_message|>`;

testFamilyContract(format);

describe('inkling: rendering', () => {
  it('renders history with one tool block per call and Hermes’ tagged results', () => {
    expect(historyTranscript(format)).toMatchInlineSnapshot(`
      "[system] You are terse.
      [user] Weather in Oslo, and the time?
      [assistant] (reasoning: Two tools.) Checking.
      <|message_model|>get_weather<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Oslo"}}<|end_message|><|message_model|>get_time<|content_invoke_tool_json|>{"name": "get_time", "args": {}}<|end_message|>
      [user] <tool_response>
      -3 C, snow
      </tool_response>
      <tool_response>
      Error: error: clock unavailable
      </tool_response>
      [assistant] It is -3 C and snowing.
      [user] Thanks"
    `);
  });
});

describe('inkling: parsing', () => {
  it('reads a turn of thinking, text and tool blocks, the first block after the template’s header', () => {
    expect(
      parse(
        `<|content_thinking|>Weather first.<|end_message|><|message_model|><|content_text|>Checking.<|end_message|>${toolBlock('get_weather', '{"city": "Paris"}')}${toolBlock('get_time', '{}')}<|content_model_end_sampling|>`,
      ),
    ).toEqual([
      { type: 'reasoning', text: 'Weather first.' },
      { type: 'text', text: 'Checking.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parse(toolBlock('search_web', '{"query": "x", "max_results": 3}', ''))).toEqual([
      call('search_web', { query: 'x', max_results: 3 }),
    ]);
  });

  it('reads nested and unicode arguments, and a block without the echo', () => {
    expect(parse(toolBlock('create_event', '{"title": "Café ☕", "options": {"remind": true}}'))).toEqual([
      call('create_event', { title: 'Café ☕', options: { remind: true } }),
    ]);
    expect(parse('<|content_invoke_tool_json|>{"name": "get_time", "args": {}}<|end_message|>')).toEqual([call('get_time', {})]);
  });

  it('reports a cut-off call as unparsed and rejects unknown tools and malformed blocks', () => {
    expect(parse('<|message_model|>search_web<|content_invoke_tool_json|>{"name": "search_web", "args": {"query": "ha')).toMatchObject([
      { type: 'tool-call-unparsed', reason: 'unclosed' },
    ]);
    expect(parse(toolBlock('delete_all_files', '{}'))).toMatchObject([{ type: 'tool-call-rejected', code: 'unavailable_tool' }]);
    expect(parse('<|message_model|>get_weather<|content_invoke_tool_json|>get_weather(city="Paris")<|end_message|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax' },
    ]);
  });

  it('keeps prose as text, block framing out of it, and only calls the request’s tools', () => {
    expect(parse('<|message_model|><|content_text|>Hello there.<|end_message|><|content_model_end_sampling|>')).toEqual([
      { type: 'text', text: 'Hello there.' },
    ]);
    expect(parse('<|message_model|>Hello there.')).toEqual([{ type: 'text', text: 'Hello there.' }]);
    for (const text of ['message_model is a token.', 'a <|content b']) expect(parse(text)).toEqual([{ type: 'text', text }]);
    expect(expectChunkingInvariant(() => format.createParser([getWeather]), toolBlock('search_web', '{"query": "x"}'))).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
  });
});

testChunkingInvariance({
  name: 'inkling',
  createParser: () => format.createParser(standardTools),
  samples: [
    `<|content_thinking|>maybe ${toolBlock('get_time', '{}')}<|end_message|><|message_model|><|content_text|>Ok.<|end_message|>${toolBlock('get_weather', '{"city": "Paris"}')}<|content_model_end_sampling|>`,
    `${toolBlock('nope', '{}')}<|message_model|>get_ti`,
    '<|message_model|>Hello there',
  ],
  fragments: [
    '<|message_model|>',
    '<|content_text|>',
    '<|content_thinking|>',
    '<|end_message|>',
    '<|content_invoke_tool_json|>',
    'get_time',
    '{"name": "get_time", "args": {}}',
    ' ',
  ],
});
