/**
 * The prompted lane end to end, for every family: the upstream gets no native tools and a system prompt
 * naming every tool; the real `openai` client gets structured calls, streamed or not.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const registry = createToolFormatRegistry();
const families = [...registry.keys()];

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the current weather for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
    },
  },
  {
    type: 'function',
    function: { name: 'get_time', description: 'Get the current UTC time.', parameters: { type: 'object', properties: {} } },
  },
];

const weatherArguments = { city: 'Paris', days: 2 };

let upstream: FakeOpenAiUpstream;
let ollama: FakeOllamaUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  [upstream, ollama] = await Promise.all([startFakeOpenAiUpstream(), startFakeOllamaUpstream()]);
  // One model per family, named after it, so each test picks its syntax explicitly.
  const models = Object.fromEntries(families.map((family) => [`m-${family}`, { family }]));
  models['m-thinking'] = { family: 'hermes', startsInReasoning: true } as never;
  gateway = await startGateway({
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted', models }),
      detect: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'auto' }),
      llama: testProvider('ollama', ollama.url, { toolCalling: 'prompted' }),
    },
  });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([upstream?.close(), ollama?.close()]);
});

function systemTextOf(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content))
    .join('\n');
}

describe.each(families)('prompted lane, family %s', (family) => {
  const format = registry.get(family)!;
  // The family's own syntax for one call, exactly as its renderer writes it.
  const reply = `Checking.\n${format.renderCall({ name: 'get_weather', arguments: JSON.stringify(weatherArguments) })}`;

  it('sends no native tools, names every tool where the family puts them (after the caller’s system text by default), and returns a structured call', async () => {
    upstream.enqueue({ type: 'chat', content: reply, fragmentSize: 4 });
    const { data: completion, response } = await client.chat.completions
      .create({
        model: `local/m-${family}`,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools,
      })
      .withResponse();
    expect(response.headers.get('x-tool-calling')).toBe('prompted');
    expect(response.headers.get('x-tool-format')).toBe(family);
    const sent = upstream.lastChatBody();
    expect(sent).not.toHaveProperty('tools');
    expect(sent).not.toHaveProperty('tool_choice');
    const system = systemTextOf(sent);
    // A family whose template puts its tool prompt elsewhere (Mistral: the list before the last user
    // turn, the instructions before the system text; Seed-OSS: only the functions after it) keeps the
    // caller's text intact all the same.
    const placesItself = format.placeToolPrompt !== undefined;
    expect(placesItself ? system.includes('You are terse.') : system.startsWith('You are terse.')).toBe(true);
    const prompt = placesItself ? JSON.stringify(sent) : system;
    for (const name of ['get_weather', 'get_time', 'Get the current weather for a city.']) expect(prompt).toContain(name);
    const message = completion.choices[0]!.message;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(message.tool_calls).toHaveLength(1);
    const call = message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual(weatherArguments);
    expect(message.content?.trim()).toBe('Checking.');
  });

  it('streams the same call to stream().finalChatCompletion(), one character per upstream chunk', async () => {
    upstream.enqueue({ type: 'chat', content: reply, fragmentSize: 1 });
    const completion = await client.chat.completions
      .stream({ model: `local/m-${family}`, messages: [{ role: 'user', content: 'Weather?' }], tools })
      .finalChatCompletion();
    const call = completion.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/\S/);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual(weatherArguments);
    expect(completion.choices[0]!.message.content?.trim()).toBe('Checking.');
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('renders earlier calls and results into the family’s own text: no tool_calls or tool role reach the upstream', async () => {
    upstream.enqueue({ type: 'chat', content: 'It is sunny.' });
    await client.chat.completions.create({
      model: `local/m-${family}`,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '-3 C, snow' },
      ],
    });
    const transcript = JSON.stringify(upstream.lastChatBody().messages);
    expect(transcript).not.toContain('"tool_calls"');
    expect(transcript).not.toContain('"role":"tool"');
    expect(transcript).toContain('get_weather');
    expect(transcript).toContain('Oslo');
    expect(transcript).toContain('-3 C, snow');
  });
});

describe('prompted lane: diagnostics, truncation and reasoning', () => {
  it('reports a call to a tool that was not offered, keeps its markup out of the content, and finishes with stop', async () => {
    upstream.enqueue({ type: 'chat', content: 'Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>' });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m-hermes', messages: [{ role: 'user', content: 'Go' }], tools }),
    });
    const body = (await response.json()) as Record<string, any>;
    expect(body.choices[0].message.content).toBe('Sure.\n');
    expect(body.choices[0].message.tool_calls).toBeUndefined();
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.diagnostics.tool_call_error).toMatchObject({ code: 'unavailable_tool', available_tools: ['get_weather', 'get_time'] });
  });

  it('keeps finish_reason length for a call cut off by the token limit, and reports it as unclosed', async () => {
    upstream.enqueue({ type: 'chat', content: 'Searching.\n<tool_call>\n{"name": "get_weather", "argu', finishReason: 'length' });
    const completion = (await client.chat.completions
      .stream({ model: 'local/m-hermes', messages: [{ role: 'user', content: 'Go' }], tools })
      .finalChatCompletion()) as OpenAI.ChatCompletion & {
      diagnostics?: Record<string, any>;
    };
    expect(completion.choices[0]!.finish_reason).toBe('length');
    expect(completion.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0]!.message.content?.trim()).toBe('Searching.');
  });

  it('starts in reasoning for a model whose template opened <think> (startsInReasoning)', async () => {
    upstream.enqueue({
      type: 'chat',
      content: 'The user wants the time.\n</think>\n\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
    });
    const completion = await client.chat.completions.create({
      model: 'local/m-thinking',
      messages: [{ role: 'user', content: 'Time?' }],
      tools,
    });
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.reasoning_content).toBe('The user wants the time.');
    expect((message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_time');
  });

  it('detects the family from the model name under toolCalling auto (Qwen/Qwen2.5 → hermes, prompted)', async () => {
    upstream.enqueue({ type: 'chat', content: '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>' });
    const { data, response } = await client.chat.completions
      .create({ model: 'detect/Qwen/Qwen2.5-7B-Instruct', messages: [{ role: 'user', content: 'Time?' }], tools })
      .withResponse();
    expect(response.headers.get('x-tool-format')).toBe('hermes');
    expect(upstream.lastChatBody().model).toBe('Qwen/Qwen2.5-7B-Instruct');
    expect((data.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_time');
  });

  it('works over Ollama too: no tools in /api/chat, calls parsed from the text', async () => {
    ollama.enqueue({ type: 'chat', content: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}]' });
    const completion = await client.chat.completions
      .stream({ model: 'llama/mistral:7b', messages: [{ role: 'user', content: 'Weather?' }], tools })
      .finalChatCompletion();
    const request = ollama.requests.filter((recorded) => recorded.path === '/api/chat').at(-1)!;
    expect(request.body).not.toHaveProperty('tools');
    const call = completion.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(JSON.parse(call.function.arguments)).toEqual(weatherArguments);
  });
});
