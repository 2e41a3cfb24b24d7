/** The real `openai` client's Responses API through the gateway: text, reasoning, parallel calls, incomplete, wire shape. */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  eventTypes,
  expectValidResponseObject,
  expectWellFormedStream,
  nativeModel,
  postRawSse,
  useResponsesHarness,
} from './responses-test-kit.js';

const responses = useResponsesHarness();

const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
  { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { timezone: { type: 'string' } } }, strict: null },
];

const parallelCalls = [
  { id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris, "Île-de-France"' } },
  { id: 'call_time_2', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
];

/** Whitespace-only pieces are content: a gateway that drops them changes the text. */
const textPieces = ['Hello', ' ', 'world', '\n', '\n', '  ', 'indented', ' '];

describe('text', () => {
  it('responses.create returns one completed message, usage and the requested model', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: textPieces, usage: { prompt_tokens: 21, completion_tokens: 8 } });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Say hello', instructions: 'Be brief.' });
    expectValidResponseObject(response);
    expect(response.status).toBe('completed');
    expect(response.model).toBe(nativeModel);
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe(textPieces.join(''));
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      id: expect.stringMatching(/^msg_/),
    });
    expect(response.usage).toEqual({
      input_tokens: 21,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 29,
    });
    expect(response.instructions).toBe('Be brief.');
    expect(responses.harness.upstream.lastChatBody().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);
  });

  it('responses.stream keeps every whitespace-only delta and finalResponse assembles the message', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: textPieces });
    const deltas: string[] = [];
    const stream = responses.client.responses.stream({ model: nativeModel, input: [{ role: 'user', content: 'Say hello' }] });
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(textPieces);
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe(textPieces.join(''));
  });

  it('sends the spec-shaped event sequence with headers, and no [DONE]', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Hi there' });
    const result = await postRawSse(responses.harness.gateway.baseUrl, { model: nativeModel, input: 'hi' });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-tool-calling')).toBe('native');
    expect(result.headers.get('x-request-id')).toMatch(/^req_/);
    expectWellFormedStream(result);
    expect(eventTypes(result)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = result.events[0]?.data.response as Record<string, unknown>;
    expect(created).toMatchObject({ status: 'in_progress', output: [], model: nativeModel });
    expect(created).not.toHaveProperty('usage');
  });

  it('reports finish reason length as response.incomplete with max_output_tokens', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Once upon a', finishReason: 'length' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'Tell a story', max_output_tokens: 3 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(response.max_output_tokens).toBe(3);
    expect(responses.harness.upstream.lastChatBody().max_tokens).toBe(3);

    responses.harness.upstream.enqueue({ type: 'chat', content: 'Once upon a', finishReason: 'length' });
    const result = await postRawSse(responses.harness.gateway.baseUrl, { model: nativeModel, input: 'Tell a story' });
    expectWellFormedStream(result);
    expect(result.events.at(-1)?.data).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });
});

describe('reasoning', () => {
  const reasoning = 'The user wants a greeting. Be brief.';

  it('renders reasoning as a reasoning item with a summary, before the message', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', reasoning, content: 'Hi!' });
    const response = await responses.client.responses.create({ model: nativeModel, input: 'hello', reasoning: { effort: 'high' } });
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.output[0]).toMatchObject({
      type: 'reasoning',
      id: expect.stringMatching(/^rs_/),
      summary: [{ type: 'summary_text', text: reasoning }],
    });
    expect(response.output_text).toBe('Hi!');
    expect(responses.harness.upstream.lastChatBody().reasoning_effort).toBe('high');
  });

  it('streams reasoning summary deltas that the SDK accumulates', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', reasoning, content: 'Hi!' });
    let streamed = '';
    const stream = responses.client.responses.stream({ model: nativeModel, input: 'hello' });
    stream.on('response.reasoning_summary_text.delta', (event) => {
      expect(event.summary_index).toBe(0);
      streamed += event.delta;
    });
    const final = await stream.finalResponse();
    expect(streamed).toBe(reasoning);
    expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning }] });
    expect(final.output_text).toBe('Hi!');
  });
});

describe('parallel function calls', () => {
  function expectCalls(output: OpenAI.Responses.ResponseOutputItem[]): void {
    const calls = output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    expect(
      calls.map(({ call_id, name, arguments: callArguments, status }) => ({ call_id, name, arguments: callArguments, status })),
    ).toEqual(
      parallelCalls.map((call) => ({ call_id: call.id, name: call.name, arguments: JSON.stringify(call.arguments), status: 'completed' })),
    );
    for (const call of calls) expect(call.id).toMatch(/^fc_/);
  }

  it('responses.create returns both calls with their call ids', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', toolCalls: parallelCalls, fragmentSize: 2 });
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: 'Weather and time in Paris?',
      tools,
      parallel_tool_calls: true,
    });
    expectValidResponseObject(response);
    expectCalls(response.output);
    expect(response.tools).toEqual(tools);
    const upstreamBody = responses.harness.upstream.lastChatBody();
    expect(upstreamBody.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Current weather for a city', parameters: tools[0]?.parameters, strict: false },
      },
      { type: 'function', function: { name: 'get_time', parameters: tools[1]?.parameters, strict: null } },
    ]);
    expect(upstreamBody.parallel_tool_calls).toBe(true);
  });

  it('responses.stream assembles interleaved fragments of both calls', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', toolCalls: parallelCalls, fragmentSize: 2, quirks: ['interleaved-calls'] });
    const argumentDeltas = new Map<number, string>();
    const stream = responses.client.responses.stream({
      model: nativeModel,
      input: 'Weather and time in Paris?',
      tools,
      tool_choice: 'required',
    });
    stream.on('response.function_call_arguments.delta', (event) => {
      argumentDeltas.set(event.output_index, (argumentDeltas.get(event.output_index) ?? '') + event.delta);
    });
    const final = await stream.finalResponse();
    expectCalls(final.output);
    expect([...argumentDeltas.values()]).toEqual(parallelCalls.map((call) => JSON.stringify(call.arguments)));
    expect(responses.harness.upstream.lastChatBody().tool_choice).toBe('required');
  });

  it('puts each call through added → arguments deltas → done with name → output_item.done', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Checking.', toolCalls: parallelCalls, fragmentSize: 4 });
    const result = await postRawSse(responses.harness.gateway.baseUrl, {
      model: nativeModel,
      input: 'Weather and time?',
      tools,
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expectWellFormedStream(result);
    const forIndex = (index: number) => result.events.filter(({ data }) => data.output_index === index).map(({ data }) => data);
    expect(forIndex(0).at(-1)).toMatchObject({
      type: 'response.output_item.done',
      item: { type: 'message', content: [{ text: 'Checking.' }] },
    });
    for (const [position, call] of parallelCalls.entries()) {
      const events = forIndex(position + 1);
      expect(events[0]).toMatchObject({
        type: 'response.output_item.added',
        item: { type: 'function_call', status: 'in_progress', call_id: call.id, name: call.name, arguments: '' },
      });
      const done = events.find((event) => event.type === 'response.function_call_arguments.done');
      expect(done).toMatchObject({
        name: call.name,
        arguments: JSON.stringify(call.arguments),
        item_id: (events[0]?.item as { id: string }).id,
      });
      expect(events.at(-1)).toMatchObject({
        type: 'response.output_item.done',
        item: { status: 'completed', arguments: JSON.stringify(call.arguments) },
      });
    }
    expect(responses.harness.upstream.lastChatBody().tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });
});

describe('options', () => {
  it('maps generation options and text.format, and echoes them on the Response', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: '{"ok":true}' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: 'json please',
      temperature: 0,
      top_p: 0.5,
      user: 'user-7',
      metadata: { ticket: 'T-1' },
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(response).toMatchObject({ temperature: 0, top_p: 0.5, metadata: { ticket: 'T-1' } });
    const body = responses.harness.upstream.lastChatBody();
    expect(body).toMatchObject({ temperature: 0, top_p: 0.5, user: 'user-7' });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } });
    expect(body).not.toHaveProperty('metadata');
  });

  it('takes the model whole on POST /{provider}/v1/responses and ignores query strings', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await fetch(`${responses.harness.gateway.baseUrl}/local/v1/responses?api-version=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'org/some-model', input: 'hi' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { model: string; output: unknown[] };
    expect(body.model).toBe('org/some-model');
    expect(responses.harness.upstream.lastChatBody().model).toBe('org/some-model');
  });
});

describe('inputs and cancellation', () => {
  it('sends image and file parts of a user message upstream', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'A cat.' });
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const pdf = 'data:application/pdf;base64,JVBERi0=';
    await responses.client.responses.create({
      model: nativeModel,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: image, detail: 'low' },
            { type: 'input_file', file_data: pdf, filename: 'a.pdf' },
          ],
        },
      ],
    });
    expect(responses.harness.upstream.lastChatBody().messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: image, detail: 'low' } },
          { type: 'file', file: { file_data: pdf, filename: 'a.pdf' } },
        ],
      },
    ]);
  });

  it('aborts the upstream request when the responses.client goes away mid-stream', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'This answer never finishes', holdAfterChunks: 3 });
    const stream = responses.client.responses.stream({ model: nativeModel, input: 'hi' });
    const settled = stream.done().then(
      () => 'finished',
      (error: unknown) => (error as Error).constructor.name,
    );
    await new Promise<void>((resolve) => stream.on('response.output_text.delta', () => resolve()));
    const upstreamRequest = responses.harness.upstream.chatRequests().at(-1);
    if (!upstreamRequest) throw new Error('no upstream request');
    stream.abort();
    await responses.harness.upstream.waitForAbort(upstreamRequest);
    expect(upstreamRequest.aborted).toBe(true);
    expect(await settled).toBe('APIUserAbortError');
  });
});
