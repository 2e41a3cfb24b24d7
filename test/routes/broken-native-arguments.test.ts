/**
 * Native tool calls whose arguments an upstream sent as broken JSON reach clients of every API, through
 * every native provider kind, as valid JSON: repaired with the prompted lane's lenient reader and said
 * in diagnostics.warnings. Streaming clients that accumulate the argument deltas end with valid JSON
 * whenever the repair is token by token; arguments that cannot be repaired are passed on as received.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { postJson } from '../helpers/read-sse.js';
import { providerKinds, useGatewayOverKinds } from './chat-completions/provider-kinds.js';

// Gemini's wire carries a call's arguments as a JSON object (`functionCall.args`), never as text that could break.
const kinds = providerKinds().filter((kind) => kind.type !== 'gemini');
const fixture = useGatewayOverKinds(kinds);

const weather = { type: 'object', properties: { city: { type: 'string' }, metric: { type: 'boolean' }, days: { type: 'integer' } } };
const chatTools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: weather } }];
const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

/** Broken texts a native server's own tool parser has been seen to emit, and what they mean. */
const repairable = [
  { case: 'a missing closing brace', text: '{"city": "Paris"', value: { city: 'Paris' } },
  { case: 'a trailing comma', text: '{"city": "Paris", "days": 3,}', value: { city: 'Paris', days: 3 } },
  { case: 'single quotes and a Python literal', text: "{'city': 'Paris', 'metric': True}", value: { city: 'Paris', metric: true } },
];

type WireWarning = { code: string; message: string };

function warningCodes(diagnostics: unknown): string[] {
  const warnings = (diagnostics as { warnings?: WireWarning[] } | undefined)?.warnings ?? [];
  return warnings.map((warning) => warning.code);
}

/** Streams a chat completion with the real SDK, accumulating argument deltas as SDK users do. */
async function streamedChatCall(model: string): Promise<{ arguments: string; diagnostics: unknown }> {
  const stream = await fixture.client().chat.completions.create({ model, messages: question, tools: chatTools, stream: true });
  let argumentsText = '';
  let diagnostics: unknown;
  for await (const chunk of stream) {
    for (const call of chunk.choices[0]?.delta.tool_calls ?? []) argumentsText += call.function?.arguments ?? '';
    const extra = (chunk as unknown as { diagnostics?: unknown }).diagnostics;
    if (extra) diagnostics = extra;
  }
  return { arguments: argumentsText, diagnostics };
}

/** Streams a Responses reply with the real SDK: the finished call's arguments and its accumulated argument deltas. */
async function streamedResponsesCall(model: string): Promise<{ arguments: string; deltas: string }> {
  const stream = fixture.client().responses.stream({
    model,
    input: 'Weather in Paris?',
    tools: [{ type: 'function', name: 'get_weather', parameters: weather, strict: false }],
  });
  let deltas = '';
  stream.on('response.function_call_arguments.delta', (event) => (deltas += event.delta));
  const final = await stream.finalResponse();
  const call = final.output.find((item) => item.type === 'function_call');
  return { arguments: call?.type === 'function_call' ? call.arguments : '', deltas };
}

/** Streams a Messages reply as raw SSE and accumulates the tool_use block's partial_json, as Anthropic's SDK does. */
async function streamedMessagesInput(model: string): Promise<string> {
  const response = await postJson(`${fixture.gateway().baseUrl}/v1/messages`, {
    model,
    max_tokens: 256,
    stream: true,
    messages: question,
    tools: [{ name: 'get_weather', input_schema: weather }],
  });
  expect(response.status).toBe(200);
  let input = '';
  for (const line of response.text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6)) as { type: string; delta?: { type: string; partial_json?: string } };
    if (event.type === 'content_block_delta' && event.delta?.type === 'input_json_delta') input += event.delta.partial_json ?? '';
  }
  return input;
}

describe.each(kinds)('broken native arguments from $type', (kind) => {
  const model = () => `${kind.name}/${kind.model}`;
  const script = (text: string) => kind.scriptToolCalls([{ id: 'call_1', name: 'get_weather', arguments: text }], 4);

  it.each(repairable)('repairs $case for a streaming Chat client, deltas included', async ({ text, value }) => {
    script(text);
    const call = await streamedChatCall(model());
    expect(JSON.parse(call.arguments)).toEqual(value);
    expect(warningCodes(call.diagnostics)).toContain('repaired-tool-arguments');
  });

  // Anthropic's non-streamed replies carry `input` as an object inside the JSON body: it cannot arrive broken.
  it.skipIf(kind.type === 'anthropic').each(repairable)('repairs $case for a non-streaming Chat client', async ({ text, value }) => {
    script(text);
    const completion = await fixture.client().chat.completions.create({ model: model(), messages: question, tools: chatTools });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual(value);
    expect(warningCodes((completion as unknown as { diagnostics?: unknown }).diagnostics)).toContain('repaired-tool-arguments');
  });

  it.each(repairable)('repairs $case for a streaming Responses client, deltas included', async ({ text, value }) => {
    script(text);
    const call = await streamedResponsesCall(model());
    expect(JSON.parse(call.arguments)).toEqual(value);
    expect(JSON.parse(call.deltas)).toEqual(value);
  });

  it.each(repairable)('repairs $case for a streaming Messages client, partial_json included', async ({ text, value }) => {
    script(text);
    expect(JSON.parse(await streamedMessagesInput(model()))).toEqual(value);
  });

  it('repairs a break it cannot mend token by token in the finished call (the streamed deltas stay as received)', async () => {
    script('{"city": "Paris", days: 3}');
    const call = await streamedResponsesCall(model());
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris', days: 3 });
    expect(call.deltas).toBe('{"city": "Paris", days: 3}');
  });

  it('passes arguments it cannot repair on as received, and reports them', async () => {
    script('{"city": "Par');
    const streamed = await streamedChatCall(model());
    expect(streamed.arguments).toBe('{"city": "Par');
    expect(warningCodes(streamed.diagnostics)).toContain('invalid-tool-arguments');
  });

  it('leaves valid arguments byte for byte, with no warning', async () => {
    script('{ "city" : "Paris" }');
    const streamed = await streamedChatCall(model());
    expect(streamed.arguments).toBe('{ "city" : "Paris" }');
    expect(warningCodes(streamed.diagnostics)).not.toContain('repaired-tool-arguments');
    expect(warningCodes(streamed.diagnostics)).not.toContain('invalid-tool-arguments');
  });
});
