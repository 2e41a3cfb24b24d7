/**
 * Anthropic thinking through /v1/responses: the signed block rides in the reasoning item's
 * `encrypted_content`, and when a Codex-style client echoes the item with the tool output, the block
 * goes back to Anthropic unmodified, in front of the call it produced (what Anthropic requires).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSignedReasoning, encodeSignedReasoning } from '../../../routes/responses/signed-reasoning.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';
import { postRawSse } from './responses-test-kit.js';

let upstream: FakeAnthropicUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
  gateway = await startGateway({ providers: { claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test' }) } });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const signature = 'RXVTaWduYXR1cmUtMQ==';
const thinking = 'The user wants Paris weather: call get_weather. ✓';
const tools = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather by city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];
const question = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] };

function thinkThenCall() {
  upstream.enqueue({
    type: 'message',
    content: [
      { type: 'thinking', thinking, signature },
      { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
    ],
  });
}

async function firstTurn(stream: boolean): Promise<Record<string, unknown>[]> {
  thinkThenCall();
  const body = {
    model: 'claude/claude-sonnet-4-5',
    input: [question],
    tools,
    reasoning: { effort: 'medium' },
    max_output_tokens: 8000,
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  if (stream) {
    const result = await postRawSse(gateway.baseUrl, body);
    const completed = result.events.find((event) => event.data.type === 'response.completed');
    return (completed?.data.response as { output: Record<string, unknown>[] }).output;
  }
  const response = await fetch(`${gateway.baseUrl}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { output: Record<string, unknown>[] }).output;
}

describe('signed reasoning through /v1/responses', () => {
  it('round-trips text and signature, and rejects what is not ours', () => {
    expect(decodeSignedReasoning(encodeSignedReasoning(thinking, signature))).toEqual({ type: 'reasoning', text: thinking, signature });
    expect(decodeSignedReasoning('gAAAAopenai-blob')).toBeUndefined();
    expect(decodeSignedReasoning(`${encodeSignedReasoning(thinking, signature).slice(0, 40)}!!`)).toBeUndefined();
    expect(decodeSignedReasoning(null)).toBeUndefined();
  });

  it.each([false, true])('hands the signed block out in encrypted_content (streamed: %s)', async (stream) => {
    const output = await firstTurn(stream);
    const reasoning = output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: thinking }]);
    expect(decodeSignedReasoning(reasoning?.encrypted_content)).toEqual({ type: 'reasoning', text: thinking, signature });
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
  });

  it('sends the echoed block back to Anthropic in front of its call, and keeps thinking on', async () => {
    const output = await firstTurn(false);
    const call = output.find((item) => item.type === 'function_call') as { call_id: string };
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'It is 18°C in Paris.' }] });
    const response = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude/claude-sonnet-4-5',
        input: [question, ...output, { type: 'function_call_output', call_id: call.call_id, output: '18°C' }],
        tools,
        reasoning: { effort: 'medium' },
        max_output_tokens: 8000,
        store: false,
        include: ['reasoning.encrypted_content'],
      }),
    });
    expect(response.status).toBe(200);
    const sent = upstream.messageRequests().at(-1)?.body as {
      thinking?: unknown;
      messages: { role: string; content: { type: string }[] }[];
    };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const assistant = sent.messages.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking, signature },
      { type: 'tool_use', id: call.call_id, name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it('drops an OpenAI reasoning blob as before', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const response = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude/claude-sonnet-4-5',
        input: [
          question,
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAopenai-blob' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] },
          question,
        ],
      }),
    });
    expect(response.status).toBe(200);
    const sent = upstream.messageRequests().at(-1)?.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] });
  });
});
