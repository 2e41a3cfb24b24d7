/**
 * Devstral and Magistral through the Chat Completions route: found by name to write tokenizer v13's
 * history, their `[TOOL_CALLS]NAME[ARGS]{…}` reply comes back as structured calls, and the next turn
 * sends the upstream that call and its result in the form their template writes.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the current weather for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  {
    type: 'function',
    function: { name: 'get_time', description: 'Get the current UTC time.', parameters: { type: 'object', properties: {} } },
  },
];

const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris, and the time?' };
/** Two parallel calls, as Devstral Small 2507 and Magistral Small 2509 write them. */
const reply = 'Checking both.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}';

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  // No family set: the model names decide it.
  gateway = await startGateway({ providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'auto' }) } });
  client = gateway.client();
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

type SentMessage = { role: string; content: unknown };

describe.each(['mistralai/Devstral-Small-2507', 'mistralai/Magistral-Small-2509'])('%s in the prompted lane', (model) => {
  it('returns the reply’s calls as structured tool_calls, streamed one character per chunk', async () => {
    upstream.enqueue({ type: 'chat', content: reply, fragmentSize: 1 });
    const stream = client.chat.completions.stream({ model: `local/${model}`, messages: [question], tools });
    const completion = await stream.finalChatCompletion();
    const { message, finish_reason } = completion.choices[0]!;
    expect(finish_reason).toBe('tool_calls');
    expect(message.content).toBe('Checking both.');
    expect(
      (message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[]).map((call) => [
        call.function.name,
        JSON.parse(call.function.arguments),
      ]),
    ).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_time', {}],
    ]);
  });

  it('writes the next turn’s history as the v13 template does: tools before the first question, calls, then bare results', async () => {
    upstream.enqueue({ type: 'chat', content: reply });
    const { data: first, response } = await client.chat.completions
      .create({ model: `local/${model}`, messages: [{ role: 'system', content: 'Be brief.' }, question], tools })
      .withResponse();
    expect(response.headers.get('x-tool-format')).toBe('mistral-v13');
    const calls = first.choices[0]!.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];

    upstream.enqueue({ type: 'chat', content: 'Sunny, and it is 10:00.' });
    const next = await client.chat.completions.create({
      model: `local/${model}`,
      tools,
      messages: [
        { role: 'system', content: 'Be brief.' },
        question,
        { role: 'assistant', content: 'Checking both.', tool_calls: calls },
        { role: 'tool', tool_call_id: calls[0]!.id, content: '{"condition": "sunny"}' },
        { role: 'tool', tool_call_id: calls[1]!.id, content: '10:00' },
      ],
    });
    expect(next.choices[0]!.message.content).toBe('Sunny, and it is 10:00.');

    const sent = upstream.lastChatBody();
    expect(sent).not.toHaveProperty('tools');
    const messages = sent.messages as SentMessage[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0]!.content).toBe('Be brief.');
    expect(messages[1]!.content).toBe(
      '[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}, {"type": "function", "function": {"name": "get_time", "description": "Get the current UTC time.", "parameters": {"type": "object", "properties": {}}}}][/AVAILABLE_TOOLS]Weather in Paris, and the time?',
    );
    expect(messages[2]!.content).toBe('Checking both.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}');
    // Results that end the conversation stay a user turn (see resultsInCallTurn), in v13's bare form.
    expect(messages[3]!.content).toBe('[TOOL_RESULTS]{"condition": "sunny"}[/TOOL_RESULTS][TOOL_RESULTS]10:00[/TOOL_RESULTS]');
  });
});
