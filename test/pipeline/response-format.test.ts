/**
 * `response_format` json_schema through the whole gateway, driven by the real `openai` client against a
 * fake OpenAI-compatible upstream (test/helpers/fake-openai-upstream.ts): native lane (format forwarded,
 * reply checked), prompted lane with tools (format written into the prompt, strict warned), whole and
 * streamed, and the Anthropic Messages route's own structured-output field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'place', schema, strict: true } };
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

type Diagnostics = { response_format_error?: { code: string; errors: { keyword: string }[] }; warnings?: { code: string }[] };
const diagnosticsOf = (value: unknown): Diagnostics | undefined => (value as { diagnostics?: Diagnostics }).diagnostics;

let setup: GatewayWithOpenAiUpstream;
beforeAll(async () => {
  setup = await startGatewayWithOpenAiUpstream({ local: 'native', prompted: 'prompted' });
});
afterAll(async () => {
  await setup.close();
});

describe('response_format json_schema', () => {
  it('native lane: forwards the format and returns the JSON a fenced, trailing-comma reply meant', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'Here you go:\n```json\n{"city": "Paris", "unit": "celsius",}\n```' });
    const completion = await setup.client.chat.completions.create({
      model: 'local/gpt-4.1',
      messages: [{ role: 'user', content: 'Weather place?' }],
      response_format: responseFormat,
    });
    expect(setup.upstream.lastChatBody().response_format).toEqual(responseFormat);
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(diagnosticsOf(completion)?.response_format_error).toBeUndefined();
  });

  it('streamed: text passes through and a wrong enum is reported on the last chunk', async () => {
    const reply = '{"city": "Paris", "unit": "kelvin"}';
    setup.upstream.enqueue({ type: 'chat', content: reply });
    const stream = await setup.client.chat.completions.create({
      model: 'local/gpt-4.1',
      messages: [{ role: 'user', content: 'Weather place?' }],
      response_format: responseFormat,
      stream: true,
    });
    let content = '';
    let last: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      last = chunk;
    }
    expect(content).toBe(reply);
    const error = diagnosticsOf(last)?.response_format_error;
    expect(error?.code).toBe('schema_mismatch');
    expect(error?.errors.map((entry) => entry.keyword)).toContain('enum');
  });

  it('reports invalid_json and leaves the content as the model wrote it', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'I cannot say.' });
    const completion = await setup.client.chat.completions.create({
      model: 'local/gpt-4.1',
      messages: [{ role: 'user', content: 'Weather place?' }],
      response_format: responseFormat,
    });
    expect(completion.choices[0]?.message.content).toBe('I cannot say.');
    expect(diagnosticsOf(completion)?.response_format_error?.code).toBe('invalid_json');
  });

  it('prompted lane with tools: the schema goes into the prompt, strict is warned, and a tool call is not checked', async () => {
    setup.upstream.enqueue({ type: 'chat', content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' });
    const completion = await setup.client.chat.completions.create({
      model: 'prompted/Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      response_format: responseFormat,
    });
    const sent = setup.upstream.lastChatBody();
    expect(sent).not.toHaveProperty('response_format');
    const system = (sent.messages as { role: string; content: string }[])[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain(JSON.stringify(schema));
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
    const diagnostics = diagnosticsOf(completion);
    expect(diagnostics?.response_format_error).toBeUndefined();
    expect(diagnostics?.warnings?.map((warning) => warning.code)).toContain('strict-schema-not-guaranteed');
  });

  it('prompted lane: an answer with prose before the JSON is returned as the JSON', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'Sure! {"city": "Oslo", "unit": "celsius"}' });
    const completion = await setup.client.chat.completions.create({
      model: 'prompted/Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'Where?' }],
      tools: [weatherTool],
      response_format: responseFormat,
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Oslo', unit: 'celsius' });
  });

  it("a schema the upstream calls invalid is the client's to fix: its 400 passes on, and the model keeps its native form", async () => {
    const loose = { type: 'object', properties: { city: { type: 'string' } } };
    setup.upstream.enqueue({
      type: 'http-error',
      status: 400,
      errorType: 'invalid_request_error',
      message:
        "Invalid schema for response_format 'place': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    });
    const refused = await postJson(`${setup.gateway.baseUrl}/v1/chat/completions`, {
      model: 'local/gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Where?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema: loose, strict: true } },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Invalid schema for response_format');

    setup.upstream.enqueue({ type: 'chat', content: '{"city": "Rome", "unit": "celsius"}' });
    await setup.client.chat.completions.create({
      model: 'local/gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Where?' }],
      response_format: responseFormat,
    });
    expect(setup.upstream.lastChatBody().response_format).toEqual(responseFormat);
  });

  it("Anthropic Messages' output_format reaches the upstream as response_format and its reply is checked", async () => {
    setup.upstream.enqueue({ type: 'chat', content: '{"city": "Rome"}' });
    const response = await postJson(`${setup.gateway.baseUrl}/v1/messages`, {
      model: 'local/gpt-4.1',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Where?' }],
      output_format: { type: 'json_schema', schema },
    });
    expect(response.status).toBe(200);
    expect(setup.upstream.lastChatBody().response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema, strict: true },
    });
    const error = diagnosticsOf(JSON.parse(response.text))?.response_format_error;
    expect(error?.code).toBe('schema_mismatch');
    expect(error?.errors.map((entry) => entry.keyword)).toContain('required');
  });
});
