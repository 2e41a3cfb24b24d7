/**
 * Google Gemini end to end: the real `openai` client through Chat Completions with a tool call and its
 * result in history (streamed and not), the thought signature carried back to Gemini on the next turn;
 * Responses and Messages clients; `/v1/models`; and the prompted lane for a Gemma model.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startFakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { anthropicEvents } from './messages/messages-test-kit.js';
import { gatewayOverUpstream } from '../helpers/gateway-over-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const setup = gatewayOverUpstream(startFakeGeminiUpstream, (url) => ({ google: testProvider('gemini', url, { apiKey: 'gemini-key' }) }));

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather now',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const signature = 'Q2lRQlZLaG5hdHVyZS1mcm9tLWdlbWluaQ==';

function scriptCallThenAnswer(): void {
  setup.upstream.enqueue(
    {
      type: 'generate',
      chunks: [
        [{ text: 'The user wants weather.', thought: true }],
        [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: signature }],
      ],
      usage: { promptTokenCount: 20, candidatesTokenCount: 6, thoughtsTokenCount: 10 },
    },
    {
      type: 'generate',
      chunks: [[{ text: 'It is ' }], [{ text: 'sunny in Paris.' }]],
      usage: { promptTokenCount: 40, candidatesTokenCount: 5 },
    },
  );
}

type SentContent = { role: string; parts: Record<string, unknown>[] };

function lastSentContents(): SentContent[] {
  return (setup.upstream.generateRequests().at(-1)?.body as { contents: SentContent[] }).contents;
}

describe.each([
  ['not streamed', false],
  ['streamed', true],
])('the openai client through Chat Completions to Gemini, %s', (_name, stream) => {
  async function complete(messages: OpenAI.ChatCompletionMessageParam[]): Promise<OpenAI.ChatCompletion> {
    const request = { model: 'google/gemini-2.5-flash', messages, tools };
    if (!stream) return setup.client.chat.completions.create(request);
    return setup.client.chat.completions.stream(request).finalChatCompletion();
  }

  it('makes a tool call, takes its result in history, and hands Gemini its thought signature back', async () => {
    scriptCallThenAnswer();
    const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await complete([{ role: 'system', content: 'Be brief.' }, question]);
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    // A streamed reply has usage only when stream_options asks for it.
    if (!stream)
      expect(first.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 16, completion_tokens_details: { reasoning_tokens: 10 } });
    const sent = setup.upstream.generateRequests().at(-1);
    expect(sent?.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather now' }] }],
    });

    const second = await complete([
      question,
      choice?.message as OpenAI.ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: call?.id ?? '', content: '22 °C, sunny' },
    ]);
    expect(second.choices[0]?.message.content).toBe('It is sunny in Paris.');
    expect(second.choices[0]?.finish_reason).toBe('stop');
    const [, modelTurn, resultTurn] = lastSentContents();
    expect(modelTurn).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { id: expect.stringMatching(/^call_/), name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: signature,
        },
      ],
    });
    const callId = (modelTurn?.parts[0]?.functionCall as { id: string }).id;
    expect(resultTurn).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: callId, name: 'get_weather', response: { result: '22 °C, sunny' } } }],
    });
  });
});

describe('other clients to Gemini', () => {
  it('a Responses client gets a function call, and its output goes back as a functionResponse with the signature kept', async () => {
    scriptCallThenAnswer();
    const responsesTools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
    ];
    const first = await setup.client.responses.create({
      model: 'google/gemini-2.5-flash',
      input: 'Weather in Paris?',
      tools: responsesTools,
    });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' ? [call.name, call.arguments] : undefined).toEqual(['get_weather', '{"city":"Paris"}']);
    if (call?.type !== 'function_call') return;
    const second = await setup.client.responses.create({
      model: 'google/gemini-2.5-flash',
      tools: responsesTools,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
      ],
    });
    expect(second.output_text).toBe('It is sunny in Paris.');
    expect(lastSentContents()[1]?.parts[0]).toMatchObject({ functionCall: { name: 'get_weather' }, thoughtSignature: signature });
  });

  it('a Messages client gets thinking and a tool_use block, streamed, and its tool_result goes back', async () => {
    scriptCallThenAnswer();
    const anthropicTools = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const response = await postJson(`${setup.gateway.baseUrl}/v1/messages`, {
      model: 'google/gemini-2.5-flash',
      max_tokens: 512,
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: anthropicTools,
    });
    expect(response.status).toBe(200);
    const events = anthropicEvents(response.text);
    const blocks = events
      .filter((event) => event.type === 'content_block_start')
      .map((event) => (event.content_block as { type: string }).type);
    expect(blocks).toEqual(['thinking', 'tool_use']);
    const toolUse = events
      .map((event) => event.content_block as { type: string; id: string } | undefined)
      .find((block) => block?.type === 'tool_use');
    expect(toolUse?.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    const stop = events.find((event) => event.type === 'message_delta') as { delta: { stop_reason: string } } | undefined;
    expect(stop?.delta.stop_reason).toBe('tool_use');
    const second = await postJson(`${setup.gateway.baseUrl}/v1/messages`, {
      model: 'google/gemini-2.5-flash',
      max_tokens: 512,
      tools: anthropicTools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: toolUse?.id, name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse?.id, content: 'sunny' }] },
      ],
    });
    expect(second.status).toBe(200);
    expect(JSON.parse(second.text)).toMatchObject({ content: [{ type: 'text', text: 'It is sunny in Paris.' }], stop_reason: 'end_turn' });
    const [, modelTurn, resultTurn] = lastSentContents();
    expect(modelTurn?.parts[0]).toMatchObject({
      functionCall: { name: 'get_weather', args: { city: 'Paris' } },
      thoughtSignature: signature,
    });
    expect(resultTurn?.parts[0]).toMatchObject({ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } });
  });

  it('an upstream 429 reaches a Messages client in the Anthropic envelope with its status', async () => {
    setup.upstream.enqueue({ type: 'http-error', status: 429, message: 'Resource has been exhausted (e.g. check quota).' });
    const response = await postJson(`${setup.gateway.baseUrl}/v1/messages`, {
      model: 'google/gemini-2.5-flash',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(response.status).toBe(429);
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Resource has been exhausted (e.g. check quota).' },
    });
  });

  it('lists Gemini models under the provider prefix on /v1/models', async () => {
    const ids = [];
    for await (const model of setup.client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['google/gemini-2.5-flash', 'google/gemini-2.5-pro']));
    expect(ids).not.toContain('google/text-embedding-004');
  });

  it('runs a Gemma model in the prompted lane: tools written into the first user turn, its tool_code call parsed back', async () => {
    setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: '```tool_code\nget_weather(city="Paris")\n```' }]] });
    const completion = await setup.client.chat.completions.create({
      model: 'google/gemma-3-27b-it',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function : undefined).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    const sent = setup.upstream.generateRequests().at(-1)?.body as {
      tools?: unknown;
      systemInstruction?: unknown;
      contents: SentContent[];
    };
    expect(sent.tools).toBeUndefined();
    expect(sent.systemInstruction).toBeUndefined();
    expect(JSON.stringify(sent.contents[0])).toContain('get_weather');
  });
});

describe('a response format beside tools on Gemini before Gemini 3, which takes function calling or a JSON mime type, not both', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
  const ask = (model: string, withTools: boolean) =>
    setup.client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Where is it sunny?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema } },
      ...(withTools ? { tools } : {}),
    });
  const sentJsonMode = (from: number) =>
    setup.upstream
      .generateRequests()
      .slice(from)
      .map((request) => (request.body as { generationConfig?: { responseMimeType?: string } }).generationConfig?.responseMimeType ?? null);

  it('goes again with the schema in the prompt, the reply checked and the client warned; later requests with tools too', async () => {
    setup.upstream.enqueue(
      { type: 'generate', chunks: [[{ text: '{"city": "Paris"}' }]] },
      { type: 'generate', chunks: [[{ text: '{"city": "Rome"}' }]] },
    );
    let before = setup.upstream.generateRequests().length;
    const first = await ask('google/gemini-2.5-flash', true);
    expect(JSON.parse(first.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris' });
    const warnings = (first as { diagnostics?: { warnings?: { message: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings.map((warning) => warning.message).join('\n')).toContain(
      "Function calling with a response mime type: 'application/json' is unsupported",
    );
    expect(sentJsonMode(before)).toEqual(['application/json', null]);

    before = setup.upstream.generateRequests().length;
    const second = await ask('google/gemini-2.5-flash', true);
    expect(JSON.parse(second.choices[0]?.message.content ?? '')).toEqual({ city: 'Rome' });
    expect(sentJsonMode(before)).toEqual([null]);
  });

  it('the same model without tools keeps its native JSON mode', async () => {
    setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: '{"city": "Oslo"}' }]] });
    const before = setup.upstream.generateRequests().length;
    const completion = await ask('google/gemini-2.5-flash', false);
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Oslo' });
    expect(sentJsonMode(before)).toEqual(['application/json']);
  });
});
