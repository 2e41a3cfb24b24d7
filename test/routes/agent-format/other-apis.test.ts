/** agent_format on /v1/responses (what Codex uses) and /v1/messages: the same event-stream transform, any inbound API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/read-sse.js';
import { expectedContent, hermesReply, startAgentFormatKit, syntax, twoCalls, type AgentFormatKit } from './agent-format-kit.js';

let kit: AgentFormatKit;

beforeAll(async () => {
  kit = await startAgentFormatKit();
});

afterAll(async () => {
  await kit?.close();
});

const responsesTools = [
  { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} } },
];

type ResponseBody = { output: { type: string; content?: { type: string; text: string }[]; name?: string }[]; error?: unknown };

describe('/v1/responses', () => {
  it('writes the calls of a prompted model into the output text for a text format', async () => {
    kit.prompted.enqueue({ type: 'chat', content: hermesReply });
    const response = await postJson(`${kit.gateway.baseUrl}/v1/responses`, {
      model: 'prompted/qwen2.5-7b-instruct',
      input: 'Weather?',
      tools: responsesTools,
      agent_format: 'qwen3',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-agent-format')).toBe('qwen3; source=field');
    const body = JSON.parse(response.text) as ResponseBody;
    expect(body.output.map((item) => item.type)).toEqual(['message']);
    expect(body.output[0]?.content?.[0]?.text).toBe(expectedContent(syntax('qwen3')));
  });

  it('gives Codex (recognised by its user agent) function_call items', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls });
    const response = await postJson(
      `${kit.gateway.baseUrl}/v1/responses`,
      { model: 'native/gpt-4o-mini', input: 'Weather?', tools: responsesTools, store: false },
      { 'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)', originator: 'codex_exec' },
    );
    expect(response.headers.get('x-agent-format')).toBe('codex; source=rule');
    const body = JSON.parse(response.text) as ResponseBody;
    expect(body.output.filter((item) => item.type === 'function_call').map((item) => item.name)).toEqual(['get_weather', 'get_weather']);
  });

  it('answers an unknown agent_format with a 400 in the OpenAI envelope', async () => {
    const response = await postJson(`${kit.gateway.baseUrl}/v1/responses`, {
      model: 'native/gpt-4o-mini',
      input: 'Weather?',
      agent_format: 'klingon',
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { type: 'invalid_request_error', param: 'agent_format' } });
  });
});

describe('/v1/messages', () => {
  const messagesBody = {
    model: 'native/gpt-4o-mini',
    max_tokens: 256,
    messages: [{ role: 'user', content: 'Weather?' }],
    tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
  };

  it('writes the calls into a text block when the X-Agent-Format header asks for it', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls });
    const response = await postJson(`${kit.gateway.baseUrl}/v1/messages`, messagesBody, { 'x-agent-format': 'xml' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-agent-format')).toBe('xml; source=header');
    const body = JSON.parse(response.text) as { content: { type: string; text?: string }[]; stop_reason: string };
    expect(body.content).toEqual([{ type: 'text', text: expectedContent(syntax('xml')) }]);
    expect(body.stop_reason).toBe('end_turn');
  });

  it('answers an unknown format in the Anthropic envelope', async () => {
    const response = await postJson(`${kit.gateway.baseUrl}/v1/messages`, messagesBody, { 'x-agent-format': 'klingon' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
