/** Conformance-suite replies of the prompted lane, as data, read the same way by every family's parser. */
// Each family falls back on every other family's distinctive syntax (markup, special tokens), so all
// must agree; a case in a word-like syntax (`functools[`, `>>>`, `Action:`) is read by its own family
// only (see fallback-markers.ts), and other families keep such text as text (fallback-markers.test.ts).
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../src/core/index.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';
import { expectChunkingInvariant } from './helpers/chunking-invariance.js';
import { createEvent, getTime, getWeather, readFile, searchWeb, writeFile } from './helpers/tools.js';

type Expected = {
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** Text after trimming; null when there is none. */
  content: string | null;
  reasoning?: string;
  diagnostic?: 'unavailable_tool' | 'invalid_tool_syntax' | 'unclosed';
};

/** `readBy`: the families whose own syntax the reply is in, when that syntax is no fallback for the others. */
type Case = { id: string; tools: ToolDefinition[]; reply: string; expected: Expected; readBy?: readonly string[] };

const cases: Case[] = [
  {
    id: 'prompted-injects-tools',
    tools: [getWeather, searchWeb],
    reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }], content: null },
  },
  {
    id: 'hermes-text-then-call',
    tools: [getWeather],
    reply:
      'Let me check that for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }], content: 'Let me check that for you.' },
  },
  {
    id: 'hermes-two-calls',
    tools: [getWeather, searchWeb],
    reply:
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "search_web", "arguments": {"query": "Louvre hours"}}\n</tool_call>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'search_web', arguments: { query: 'Louvre hours' } },
      ],
      content: null,
    },
  },
  {
    id: 'qwen3-pipe-tags',
    tools: [readFile],
    reply: '<|tool_call|>\n{"name": "read_file", "arguments": {"path": "README.md", "start_line": 1, "end_line": 20}}\n</|tool_call|>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'README.md', start_line: 1, end_line: 20 } }], content: null },
  },
  {
    id: 'qwen3-think-then-call',
    tools: [searchWeb],
    reply:
      '<think>\nI should search for this.\n</think>\n\n<tool_call>\n{"name": "search_web", "arguments": {"query": "node 20 release date"}}\n</tool_call>',
    expected: {
      calls: [{ name: 'search_web', arguments: { query: 'node 20 release date' } }],
      content: null,
      reasoning: 'I should search for this.',
    },
  },
  {
    id: 'llama3-function-call-tag',
    tools: [getWeather],
    reply: '<function_call>\n{"name": "get_weather", "arguments": {"city": "Berlin"}}\n</function_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Berlin' } }], content: null },
  },
  {
    id: 'llama31-python-tag-parameters',
    tools: [getWeather],
    reply: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Madrid"}}',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Madrid' } }], content: null },
  },
  {
    id: 'bare-json-whole-message',
    tools: [searchWeb],
    reply: '{"name": "search_web", "arguments": {"query": "tokyo population", "max_results": 5}}',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'tokyo population', max_results: 5 } }], content: null },
  },
  {
    id: 'fenced-tool-call-block',
    tools: [getTime],
    reply: '```tool_call\n{"name": "get_time", "arguments": {}}\n```',
    expected: { calls: [{ name: 'get_time', arguments: {} }], content: null },
  },
  {
    id: 'fenced-json-array',
    tools: [getWeather, getTime],
    reply: '```json\n[{"name": "get_weather", "arguments": {"city": "Nice"}}, {"name": "get_time", "arguments": {}}]\n```',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Nice' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'json-answer-is-not-a-call',
    tools: [getWeather],
    reply: '```json\n{"name": "Alice", "age": 31}\n```',
    expected: { calls: [], content: '```json\n{"name": "Alice", "age": 31}\n```' },
  },
  {
    id: 'nested-arguments',
    tools: [createEvent],
    reply:
      '<tool_call>\n{"name": "create_event", "arguments": {"title": "Sync {weekly}", "attendees": ["a@x.io", "b@x.io"], "options": {"remind": true, "minutes": 10}}}\n</tool_call>',
    expected: {
      calls: [
        {
          name: 'create_event',
          arguments: { title: 'Sync {weekly}', attendees: ['a@x.io', 'b@x.io'], options: { remind: true, minutes: 10 } },
        },
      ],
      content: null,
    },
  },
  {
    id: 'unknown-tool-rejected',
    tools: [getWeather],
    reply: 'Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>',
    expected: { calls: [], content: 'Sure.', diagnostic: 'unavailable_tool' },
  },
  {
    id: 'malformed-call-reported',
    tools: [getWeather],
    reply: '<tool_call>\nget weather for paris please\n</tool_call>',
    expected: { calls: [], content: null, diagnostic: 'invalid_tool_syntax' },
  },
  {
    id: 'unclosed-but-complete',
    tools: [getWeather],
    reply: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Lima' } }], content: null },
  },
  {
    id: 'unclosed-truncated',
    tools: [searchWeb],
    reply: 'Searching.\n<tool_call>\n{"name": "search_web", "argu',
    expected: { calls: [], content: 'Searching.', diagnostic: 'unclosed' },
  },
  {
    id: 'angle-brackets-in-prose',
    tools: [getWeather],
    reply: 'If a < b and <b>bold</b> text, use <tool> carefully; 3 <| 4.',
    expected: { calls: [], content: 'If a < b and <b>bold</b> text, use <tool> carefully; 3 <| 4.' },
  },
  {
    id: 'qwen3-coder-xml',
    tools: [readFile],
    reply:
      '<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.ts\n</parameter>\n<parameter=start_line>\n10\n</parameter>\n</function>\n</tool_call>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'src/app.ts', start_line: 10 } }], content: null },
  },
  {
    id: 'qwen3-coder-multiline-value',
    tools: [writeFile],
    reply:
      'I\'ll create it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nhello.py\n</parameter>\n<parameter=content>\ndef main():\n    print("hi")\n\nmain()\n</parameter>\n</function>\n</tool_call>',
    expected: {
      calls: [{ name: 'write_file', arguments: { path: 'hello.py', content: 'def main():\n    print("hi")\n\nmain()' } }],
      content: "I'll create it.",
    },
  },
  {
    id: 'qwen3-coder-two-functions-one-envelope',
    tools: [getWeather, getTime],
    reply:
      '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n<function=get_time>\n</function>\n</tool_call>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'qwen3-coder-value-holding-end-tag',
    tools: [writeFile],
    reply:
      '<tool_call>\n<function=write_file>\n<parameter=path>\na.ts\n</parameter>\n<parameter=content>\nconst end = "</tool_call>";\n</parameter>\n</function>\n</tool_call>',
    expected: { calls: [{ name: 'write_file', arguments: { path: 'a.ts', content: 'const end = "</tool_call>";' } }], content: null },
  },
  {
    id: 'qwen3-coder-missing-opening-tag',
    tools: [searchWeb],
    reply: "I'll search.\n\n<function=search_web>\n<parameter=query>\nexample.com\n</parameter>\n</function>\n</tool_call>",
    expected: { calls: [{ name: 'search_web', arguments: { query: 'example.com' } }], content: "I'll search." },
  },
  {
    id: 'qwen3-coder-unknown-tool-rejected',
    tools: [getWeather],
    reply: 'Sure.\n<tool_call>\n<function=acme.no_such_tool>\n<parameter=target>\nx\n</parameter>\n</function>\n</tool_call>',
    expected: { calls: [], content: 'Sure.', diagnostic: 'unavailable_tool' },
  },
  {
    id: 'qwen3-coder-unclosed-truncated',
    tools: [searchWeb],
    reply: 'Fetching.\n<tool_call>\n<function=search_web>\n<parameter=query>\nhttps://aiweekly.co/ai-',
    expected: { calls: [], content: 'Fetching.', diagnostic: 'unclosed' },
  },
  {
    id: 'glm45-arg-key-value',
    tools: [getWeather],
    reply:
      '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>unit</arg_key>\n<arg_value>celsius</arg_value>\n</tool_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Beijing', unit: 'celsius' } }], content: null },
  },
  {
    id: 'glm47-compact-with-typed-value',
    tools: [searchWeb],
    reply:
      '<tool_call>search_web<arg_key>query</arg_key><arg_value>42</arg_value><arg_key>max_results</arg_key><arg_value>3</arg_value></tool_call>',
    expected: { calls: [{ name: 'search_web', arguments: { query: '42', max_results: 3 } }], content: null },
  },
  {
    id: 'glm-unclosed-truncated',
    tools: [getWeather],
    reply: 'Checking.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Bei',
    expected: { calls: [], content: 'Checking.', diagnostic: 'unclosed' },
  },
  {
    id: 'mistral-tool-calls-array',
    tools: [getWeather, getTime],
    reply: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Geneva"}}, {"name": "get_time", "arguments": {}}]',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Geneva' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'mistral-name-args-form',
    tools: [searchWeb],
    reply: '[TOOL_CALLS]search_web[ARGS]{"query": "mistral le chat"}',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'mistral le chat' } }], content: null },
  },
  {
    id: 'mistral-small-call-id-form-repeated',
    tools: [getWeather, getTime],
    reply: 'Checking.[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{"city": "Nice"}[TOOL_CALLS]get_time{}',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Nice' } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Checking.',
    },
  },
  {
    id: 'magistral-think-then-call',
    tools: [getWeather],
    reply: '[THINK]The user wants the weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Rome"}',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }], content: null, reasoning: 'The user wants the weather.' },
  },
  {
    id: 'mistral-unclosed-truncated',
    tools: [getWeather],
    reply: '[TOOL_CALLS]get_weather[ARGS]{"city": "Par',
    expected: { calls: [], content: null, diagnostic: 'unclosed' },
  },
  {
    id: 'deepseek-v3-fenced',
    tools: [getWeather],
    reply:
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Hangzhou"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Hangzhou' } }], content: null },
  },
  {
    id: 'deepseek-r1-think-then-call',
    tools: [searchWeb],
    reply:
      '<think>Need fresh data.</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search_web\n```json\n{"query": "latest LTS"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'latest LTS' } }], content: null, reasoning: 'Need fresh data.' },
  },
  {
    id: 'deepseek-v31-two-calls',
    tools: [getWeather, getTime],
    reply:
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Shenzhen"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Shenzhen' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'deepseek-unclosed-truncated',
    tools: [searchWeb],
    reply: 'Searching.\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search_web\n```json\n{"query": "no',
    expected: { calls: [], content: 'Searching.', diagnostic: 'unclosed' },
  },
  {
    id: 'kimi-k2-sections',
    tools: [getWeather],
    reply:
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Osaka"}<|tool_call_end|><|tool_calls_section_end|>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Osaka' } }], content: null },
  },
  {
    id: 'kimi-k2-thinking-section-before-think-end',
    tools: [getWeather, getTime],
    reply:
      '<think>Two lookups.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Kobe"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Kobe' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
      reasoning: 'Two lookups.',
    },
  },
  {
    id: 'kimi-k2-unknown-tool-rejected',
    tools: [getWeather],
    reply:
      'Sure.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.delete_all_files:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    expected: { calls: [], content: 'Sure.', diagnostic: 'unavailable_tool' },
  },
  {
    id: 'harmony-call',
    tools: [getWeather],
    reply:
      '<|channel|>analysis<|message|>User asks weather; call tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Seattle"}<|call|>',
    expected: {
      calls: [{ name: 'get_weather', arguments: { city: 'Seattle' } }],
      content: null,
      reasoning: 'User asks weather; call tool.',
    },
  },
  {
    id: 'harmony-final',
    tools: [getWeather],
    reply: '<|channel|>analysis<|message|>Simple greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hi there!<|return|>',
    expected: { calls: [], content: 'Hi there!', reasoning: 'Simple greeting.' },
  },
  {
    id: 'harmony-role-header-recipient-after-preamble',
    tools: [getWeather, getTime],
    reply:
      '<|channel|>commentary<|message|>Checking both.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Oslo"}<|call|><|start|>assistant<|channel|>commentary to=functions.get_time<|message|>{}',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Oslo' } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Checking both.',
    },
  },
  {
    id: 'harmony-unknown-recipient-rejected',
    tools: [getWeather],
    reply: '<|channel|>commentary to=functions.delete_all_files <|constrain|>json<|message|>{}<|call|>',
    expected: { calls: [], content: null, diagnostic: 'unavailable_tool' },
  },
  {
    id: 'harmony-unclosed-truncated',
    tools: [getWeather],
    reply: '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Sea',
    expected: { calls: [], content: null, diagnostic: 'unclosed' },
  },
  {
    id: 'gemma-tool-code',
    tools: [getTime],
    reply: '```tool_code\n{"name": "get_time", "arguments": {}}\n```',
    expected: { calls: [{ name: 'get_time', arguments: {} }], content: null },
  },
  {
    id: 'gemma-tool-code-python',
    tools: [getWeather, getTime],
    reply: 'Let me check.\n```tool_code\nget_weather(city="Paris", unit="celsius")\nget_time()\n```',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Let me check.',
    },
  },
  {
    id: 'gemma4-delimited-strings',
    tools: [createEvent],
    reply:
      '<|tool_call>call:create_event{title:<|"|>Sync "weekly" 🗓️<|"|>,attendees:[<|"|>a@x.io<|"|>],options:{remind:true,minutes:10}}<tool_call|>',
    expected: {
      calls: [
        { name: 'create_event', arguments: { title: 'Sync "weekly" 🗓️', attendees: ['a@x.io'], options: { remind: true, minutes: 10 } } },
      ],
      content: null,
    },
  },
  {
    id: 'functiongemma-escape-strings',
    tools: [getWeather],
    reply: '<start_function_call>call:get_weather{city:<escape>Zürich<escape>}<end_function_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Zürich' } }], content: null },
  },
  {
    id: 'gemma-unknown-tool-rejected',
    tools: [getWeather],
    reply: 'Sure.\n```tool_code\ndelete_all_files(confirm=True)\n```',
    expected: { calls: [], content: 'Sure.', diagnostic: 'unavailable_tool' },
  },
  // families-a: Granite, InternLM, the <tool_calls> group and MiniMax.
  {
    id: 'granite3-tool-call-list-to-the-end',
    tools: [getWeather, getTime],
    reply: '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Boston"}}, {"name": "get_time", "arguments": {}}]',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Boston' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'granite-20b-fc-repeated-function-call',
    tools: [getWeather, searchWeb],
    reply:
      '<function_call> {"name": "get_weather", "arguments": {"city": "Austin"}} <function_call> {"name": "search_web", "arguments": {"query": "Austin BBQ"}}',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Austin' } },
        { name: 'search_web', arguments: { query: 'Austin BBQ' } },
      ],
      content: null,
    },
  },
  {
    id: 'internlm-plugin-action',
    tools: [getWeather],
    reply:
      'Sure, I will search for the weather of Shanghai.<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Shanghai"}}<|action_end|>',
    expected: {
      calls: [{ name: 'get_weather', arguments: { city: 'Shanghai' } }],
      content: 'Sure, I will search for the weather of Shanghai.',
    },
  },
  {
    id: 'tool-calls-list-jamba-hunyuan-apriel',
    tools: [getWeather, readFile],
    reply:
      'Checking.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Haifa"}}, {"name": "read_file", "arguments": {"path": "</tool_calls>.md"}}]</tool_calls>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Haifa' } },
        { name: 'read_file', arguments: { path: '</tool_calls>.md' } },
      ],
      content: 'Checking.',
    },
  },
  {
    id: 'minimax-m1-call-per-line',
    tools: [searchWeb],
    reply:
      '<think>\nTwo searches.\n</think>\n<tool_calls>\n{"name": "search_web", "arguments": {"query": "OpenAI release"}}\n{"name": "search_web", "arguments": {"query": "Gemini release"}}\n</tool_calls>',
    expected: {
      calls: [
        { name: 'search_web', arguments: { query: 'OpenAI release' } },
        { name: 'search_web', arguments: { query: 'Gemini release' } },
      ],
      content: null,
      reasoning: 'Two searches.',
    },
  },
  {
    id: 'minimax-m2-invokes-typed-by-schema',
    tools: [readFile],
    reply:
      '<minimax:tool_call>\n<invoke name="read_file">\n<parameter name="path">src/app.ts</parameter>\n<parameter name="start_line">10</parameter>\n</invoke>\n</minimax:tool_call>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'src/app.ts', start_line: 10 } }], content: null },
  },
  {
    id: 'minimax-m2-unclosed-truncated',
    tools: [readFile],
    reply: 'Reading.\n<minimax:tool_call>\n<invoke name="read_file">\n<parameter name="path">src/ap',
    expected: { calls: [], content: 'Reading.', diagnostic: 'unclosed' },
  },
  // families-c
  {
    id: 'phi4-mini-functools-list',
    readBy: ['functools'],
    tools: [getWeather, getTime],
    reply: 'functools[{"name": "get_weather", "arguments": {"city": "Lisbon"}}, {"name": "get_time", "parameters": {}}]',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Lisbon' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'firefunction-v2-space-functools-unclosed-list',
    readBy: ['functools'],
    tools: [searchWeb],
    reply: 'Searching now. functools[{"name": "search_web", "arguments": {"query": "a [b] c"}}',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'a [b] c' } }], content: 'Searching now.' },
  },
  {
    id: 'functools-unknown-tool-rejected',
    readBy: ['functools'],
    tools: [getWeather],
    reply: 'functools[{"name": "delete_all_files", "arguments": {}}]',
    expected: { calls: [], content: null, diagnostic: 'unavailable_tool' },
  },
  {
    id: 'xlam-bare-array',
    tools: [getWeather, searchWeb],
    reply: '[{"name": "get_weather", "arguments": {"city": "Quito"}}, {"name": "search_web", "arguments": {"query": "Quito altitude"}}]',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Quito' } },
        { name: 'search_web', arguments: { query: 'Quito altitude' } },
      ],
      content: null,
    },
  },
  {
    id: 'xlam-array-of-data-stays-text',
    tools: [getWeather],
    reply: '[{"name": "Quito", "altitude_m": 2850}]',
    expected: { calls: [], content: '[{"name": "Quito", "altitude_m": 2850}]' },
  },
  {
    id: 'functionary-v31-function-tags',
    tools: [getWeather, getTime],
    reply: '<function=get_weather>{"city": "Nairobi"}</function><function=get_time>{}</function>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Nairobi' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'functionary-v32-recipients',
    readBy: ['functionary-v32'],
    tools: [getWeather],
    reply: '>>>all\nOne moment.>>>get_weather\n{"city": "Hanoi"}',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Hanoi' } }], content: 'One moment.' },
  },
  {
    id: 'python-prompt-is-not-a-recipient',
    tools: [getWeather],
    reply: 'Run:\n>>> import math\n>>> math.pi',
    expected: { calls: [], content: 'Run:\n>>> import math\n>>> math.pi' },
  },
  {
    id: 'functionary-v32-unclosed-truncated',
    readBy: ['functionary-v32'],
    tools: [getWeather],
    reply: '>>>get_weather\n{"city": "Ha',
    expected: { calls: [], content: null, diagnostic: 'unclosed' },
  },
  {
    id: 'longcat-json-tags',
    tools: [getTime],
    reply: '<longcat_tool_call>\n{"name": "get_time", "arguments": {}}\n</longcat_tool_call>',
    expected: { calls: [{ name: 'get_time', arguments: {} }], content: null },
  },
  {
    id: 'longcat-arg-pairs',
    tools: [readFile],
    reply:
      '<longcat_tool_call>read_file\n<longcat_arg_key>path</longcat_arg_key>\n<longcat_arg_value>src/app.ts</longcat_arg_value>\n<longcat_arg_key>start_line</longcat_arg_key>\n<longcat_arg_value>10</longcat_arg_value>\n</longcat_tool_call>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'src/app.ts', start_line: 10 } }], content: null },
  },
  {
    id: 'ernie-think-then-call',
    tools: [searchWeb],
    reply: '<think>\nLook it up.\n</think>\n\n\n<tool_call>\n{"name": "search_web", "arguments": {"query": "ERNIE 4.5"}}\n</tool_call>\n',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'ERNIE 4.5' } }], content: null, reasoning: 'Look it up.' },
  },
  {
    id: 'deepseek-v32-dsml',
    tools: [getWeather, searchWeb],
    reply:
      'Checking.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">杭州</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="search_web">\n<｜DSML｜parameter name="query" string="true">西湖</｜DSML｜parameter>\n<｜DSML｜parameter name="max_results" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: '杭州' } },
        { name: 'search_web', arguments: { query: '西湖', max_results: 3 } },
      ],
      content: 'Checking.',
    },
  },
  {
    id: 'deepseek-v4-tool-calls-unknown-tool',
    tools: [getWeather],
    reply: '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="rm">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
    expected: { calls: [], content: null, diagnostic: 'unavailable_tool' },
  },
  {
    id: 'deepseek-v32-unclosed-truncated',
    tools: [getWeather],
    reply: '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Ha',
    expected: { calls: [], content: null, diagnostic: 'unclosed' },
  },
  {
    id: 'dots-invoke-block',
    tools: [searchWeb],
    reply:
      'ok<dots_function_call>\n<invoke name="search_web">\n<parameter name="query">weather in Shanghai</parameter>\n<parameter name="max_results">3</parameter>\n</invoke>\n</dots_function_call>',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'weather in Shanghai', max_results: 3 } }], content: 'ok' },
  },
  {
    id: 'seed-oss-think-then-call',
    tools: [writeFile],
    reply:
      '<seed:think>Write the file; do not call <seed:tool_call> here.</seed:think>Writing it.\n<seed:tool_call>\n<function=write_file>\n<parameter=path>a.py</parameter>\n<parameter=content>\n    x = 1\n</parameter>\n</function>\n</seed:tool_call><seed:eos>',
    expected: {
      // The newline frame is layout (vLLM's seed_oss parser, llama.cpp's seed-oss tests); the indent is the value's.
      calls: [{ name: 'write_file', arguments: { path: 'a.py', content: '    x = 1' } }],
      content: 'Writing it.',
      reasoning: 'Write the file; do not call <seed:tool_call> here.',
    },
  },
  {
    id: 'seed-oss-unclosed-truncated',
    tools: [searchWeb],
    reply: 'Searching.\n<seed:tool_call>\n<function=search_web>\n<parameter=query>half',
    expected: { calls: [], content: 'Searching.', diagnostic: 'unclosed' },
  },
  {
    id: 'step3-steptml-two-calls',
    tools: [searchWeb, getTime],
    reply:
      'Checking.<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="search_web">\n<steptml:parameter name="query">step3</steptml:parameter>\n<steptml:parameter name="max_results">2</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_time">\n</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    expected: {
      calls: [
        { name: 'search_web', arguments: { query: 'step3', max_results: 2 } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Checking.',
    },
  },
  {
    id: 'step3-unknown-tool-rejected',
    tools: [getWeather],
    reply:
      'Sure.<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="delete_all_files">\n</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
    expected: { calls: [], content: 'Sure.', diagnostic: 'unavailable_tool' },
  },
  {
    id: 'olmo3-function-calls-lines',
    tools: [getWeather, getTime],
    reply: '<function_calls>\nget_weather(city="Seattle", unit=null)\nget_time()\n</function_calls>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Seattle', unit: null } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
    },
  },
  {
    id: 'gigachat3-function-call-role',
    readBy: ['gigachat'],
    tools: [getWeather],
    reply: 'Уточню погоду.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Санкт-Петербург"}}',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Санкт-Петербург' } }], content: 'Уточню погоду.' },
  },
  {
    id: 'gigachat31-function-call-token',
    tools: [getTime],
    reply: '<|function_call|>{"name": "get_time", "arguments": {}}</s>',
    expected: { calls: [{ name: 'get_time', arguments: {} }], content: null },
  },
  {
    id: 'apertus-name-keyed-list',
    tools: [getWeather, getTime],
    reply:
      '<|inner_prefix|>Two lookups.<|inner_suffix|>Let me see. <|tools_prefix|>[{"get_weather": {"city": "Lugano"}}, {"get_time": {}}]<|tools_suffix|>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Lugano' } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Let me see.',
      reasoning: 'Two lookups.',
    },
  },
  {
    id: 'command-r7b-thinking-action',
    tools: [searchWeb],
    reply:
      '<|START_THINKING|>I will search for it.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search_web", "parameters": {"query": "command a"}}\n]<|END_ACTION|>',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'command a' } }], content: null, reasoning: 'I will search for it.' },
  },
  {
    id: 'command-r7b-response-framing',
    tools: [searchWeb],
    reply: '<|START_RESPONSE|>Paris is the capital of France.<|END_RESPONSE|>',
    expected: { calls: [], content: 'Paris is the capital of France.' },
  },
  {
    id: 'command-r-plus-action-fence',
    readBy: ['command-r'],
    tools: [getWeather],
    reply:
      'Action: ```json\n[\n    {\n        "tool_name": "get_weather",\n        "parameters": {\n            "city": "Toronto"\n        }\n    }\n]\n```',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Toronto' } }], content: null },
  },
  {
    id: 'nemotron-toolcall-list',
    tools: [getWeather, getTime],
    reply:
      '<think>\nNeed both.\n</think>\n\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Austin"}}, {"name": "get_time", "arguments": {}}]</TOOLCALL>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Austin' } },
        { name: 'get_time', arguments: {} },
      ],
      content: null,
      reasoning: 'Need both.',
    },
  },
  {
    id: 'nemotron-unclosed-truncated',
    tools: [searchWeb],
    reply: 'Searching.\n<TOOLCALL>[{"name": "search_web", "arguments": {"query": "no',
    expected: { calls: [], content: 'Searching.', diagnostic: 'unclosed' },
  },
  // The issue 11 sweep, continued.
  {
    id: 'solar-open2-pairs',
    tools: [getWeather, searchWeb],
    reply:
      'Checking.\n<|tool_call:start|>search_web\n<|tool_arg:start|>query<|tool_arg:value|>부산 맛집<|tool_arg:end|>\n<|tool_arg:start|>max_results<|tool_arg:value|>5<|tool_arg:end|>\n<|tool_call:end|>',
    expected: { calls: [{ name: 'search_web', arguments: { query: '부산 맛집', max_results: 5 } }], content: 'Checking.' },
  },
  {
    id: 'plamo3-requests',
    tools: [getWeather, getTime],
    reply:
      '東京です。<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>get_weather<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>{"city": "東京"}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: '東京' } }], content: '東京です。' },
  },
  {
    id: 'kimi-k3-xtml-calls',
    tools: [getWeather, searchWeb],
    reply:
      '<|open|>think<|sep|>Weather.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="search_web" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>Paris<|close|>argument<|sep|><|open|>argument key="max_results" type="number"<|sep|>2<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|><|end_of_msg|>',
    expected: {
      calls: [{ name: 'search_web', arguments: { query: 'Paris', max_results: 2 } }],
      content: 'Checking.',
      reasoning: 'Weather.',
    },
  },
  {
    id: 'openpangu-reserved-markers',
    tools: [getWeather, getTime],
    reply: '查一下。[unused11][{"name": "get_weather", "arguments": {"city": "深圳"}}, {"name": "get_time", "arguments": {}}][unused12]',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: '深圳' } },
        { name: 'get_time', arguments: {} },
      ],
      content: '查一下。',
    },
  },
  {
    id: 'minicpm5-function-blocks',
    tools: [getWeather, searchWeb],
    reply: '查一下。\n<function name="search_web"><param name="query">北京</param><param name="max_results">3</param></function>',
    expected: { calls: [{ name: 'search_web', arguments: { query: '北京', max_results: 3 } }], content: '查一下。' },
  },
  {
    id: 'hy3-pair-calls',
    tools: [getWeather, getTime],
    reply:
      '查一下。<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>深圳</arg_value></tool_call><tool_call>get_time<tool_sep></tool_call></tool_calls>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: '深圳' } },
        { name: 'get_time', arguments: {} },
      ],
      content: '查一下。',
    },
  },
  {
    id: 'gigachat35-gcml-invokes',
    tools: [getWeather, searchWeb],
    reply:
      'Сейчас.\n<｜GCML｜tool_calls>\n<｜GCML｜invoke name="search_web">\n<｜GCML｜parameter name="query" string="true">Москва</｜GCML｜parameter>\n<｜GCML｜parameter name="max_results" string="false">3</｜GCML｜parameter>\n</｜GCML｜invoke>\n</｜GCML｜tool_calls>',
    expected: { calls: [{ name: 'search_web', arguments: { query: 'Москва', max_results: 3 } }], content: 'Сейчас.' },
  },
  {
    id: 'k2-horizon-ifm-pairs',
    tools: [getWeather, getTime],
    reply:
      'Checking.<ifm|tool_calls><ifm|tool_call>get_weather\n<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Dubai</ifm|arg_value></ifm|tool_call><ifm|tool_call>get_time\n</ifm|tool_call></ifm|tool_calls>',
    expected: {
      calls: [
        { name: 'get_weather', arguments: { city: 'Dubai' } },
        { name: 'get_time', arguments: {} },
      ],
      content: 'Checking.',
    },
  },
  {
    id: 'iquest-coder-v2-pairs',
    tools: [readFile],
    reply:
      '<iquestcoder_tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.py</arg_value>\n<arg_key>start_line</arg_key>\n<arg_value>3</arg_value>\n</iquestcoder_tool_call>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'a.py', start_line: 3 } }], content: null },
  },
  {
    id: 'minimax-m3-elements',
    tools: [createEvent],
    reply:
      'Booking.\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="create_event">\n]<]minimax[>[<title>Sync]<]minimax[>[</title>\n]<]minimax[>[<attendees>]<]minimax[>[<item>a@x.io]<]minimax[>[</item>]<]minimax[>[</attendees>\n]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>',
    expected: { calls: [{ name: 'create_event', arguments: { title: 'Sync', attendees: ['a@x.io'] } }], content: 'Booking.' },
  },
  {
    id: 'step-audio-2-typed-call',
    tools: [getWeather],
    reply: '<tool_call>function\nget_weather\n{"city": "上海"}</tool_call>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: '上海' } }], content: null },
  },
  {
    id: 'cwm-tool-block',
    tools: [readFile],
    reply: 'Reading.\n<tool: function>\nread_file {"path": "a.py"}\n</tool>',
    expected: { calls: [{ name: 'read_file', arguments: { path: 'a.py' } }], content: 'Reading.' },
  },
  {
    id: 'rwkv-marked-fence',
    readBy: ['rwkv'],
    tools: [getWeather],
    reply: '**Tool Call:**\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], content: null },
  },
  {
    id: 'hy4-suffixed-section',
    tools: [getWeather],
    reply:
      '<tool_calls:6124c78e><tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e><arg_value:6124c78e>深圳</arg_value:6124c78e></tool_call:6124c78e></tool_calls:6124c78e>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: '深圳' } }], content: null },
  },
  {
    id: 'muse-glimmer-atem-message',
    tools: [getWeather],
    reply:
      '<|start|>assistant to=get_weather<|message|><atem:function_calls>\n<atem:invoke name="get_weather">\n<atem:parameter name="city">Paris</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], content: null },
  },
  {
    id: 'inkling-tool-block',
    tools: [getWeather],
    reply: '<|message_model|>get_weather<|content_invoke_tool_json|>{"name": "get_weather", "args": {"city": "Paris"}}<|end_message|>',
    expected: { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], content: null },
  },
];

function summarize(events: readonly ParsedEvent[]): Expected {
  const text = events
    .flatMap((event) => (event.type === 'text' ? [event.text] : []))
    .join('')
    .trim();
  const reasoning = events.flatMap((event) => (event.type === 'reasoning' ? [event.text] : [])).join('');
  const diagnostics = events.flatMap((event) =>
    event.type === 'tool-call-rejected' ? [event.code] : event.type === 'tool-call-unparsed' ? [event.reason] : [],
  );
  return {
    calls: events.flatMap((event) =>
      event.type === 'tool-call' ? [{ name: event.name, arguments: JSON.parse(event.arguments) as Record<string, unknown> }] : [],
    ),
    content: text === '' ? null : text,
    ...(reasoning === '' ? {} : { reasoning }),
    ...(diagnostics[0] === undefined ? {} : { diagnostic: diagnostics[0] as Expected['diagnostic'] }),
  };
}

const registry = createToolFormatRegistry();

describe.each([...registry.keys()])('%s parser on conformance replies', (family) => {
  const format = registry.get(family)!;
  const readable = cases.filter((testCase) => testCase.readBy === undefined || testCase.readBy.includes(family));
  it.each(readable.map((testCase) => [testCase.id, testCase]))('%s', (_id, testCase) => {
    const events = expectChunkingInvariant(() => format.createParser(testCase.tools), testCase.reply);
    expect(summarize(events)).toEqual(testCase.expected);
  });

  it('no-tools-no-parsing', () => {
    const reply = 'Write <tool_call>{"name": "x", "arguments": {}}</tool_call> to call a tool.';
    expect(summarize(expectChunkingInvariant(() => format.createParser([]), reply))).toEqual({ calls: [], content: reply });
  });
});
