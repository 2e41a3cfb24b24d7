/**
 * One upstream reply, the same diagnostics whether the client streams or not, on Chat Completions,
 * Responses and Messages: the same scripted replies (prompted and native lane) go through every API in
 * both modes and the codes of the diagnostics they carry are compared, none duplicated, none missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAiChatReply, FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../../helpers/gateway-with-openai-upstream.js';
import { postJson, sseChunks } from '../../helpers/read-sse.js';
import type { StartedGateway } from '../../helpers/start-gateway.js';
import { accumulate, anthropicEvents, post } from '../messages/messages-test-kit.js';
import { postRawSse } from '../responses/responses-test-kit.js';

let kit: GatewayWithOpenAiUpstream;
let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  kit = await startGatewayWithOpenAiUpstream({ prompted: 'prompted', native: 'native' });
  ({ upstream, gateway } = kit);
});

afterAll(async () => {
  await kit?.close();
});

type Api = 'chat-completions' | 'responses' | 'messages';
type WireDiagnostics = {
  tool_call_error?: { code: string };
  unparsed_tool_call?: { reason: string };
  warnings?: { code: string }[];
};

type Case = {
  name: string;
  lane: 'prompted' | 'native';
  reply: FakeOpenAiChatReply;
  /** The codes every API reports, in both modes. */
  codes: string[];
  /** Where Messages reports more (its `input` must be an object; OpenAI's arguments are any text). */
  messagesCodes?: string[];
};

/** A Qwen2.5 model: Hermes `<tool_call>` tags in the prompted lane. */
const model = 'Qwen/Qwen2.5-7B-Instruct';
const call = (json: string): string => `Let me look.\n<tool_call>\n${json}\n</tool_call>`;

const cases: Case[] = [
  {
    name: 'a call whose arguments are not JSON',
    lane: 'prompted',
    reply: { type: 'chat', content: call('{"name": "Bash", "arguments": {"command": ls -la}}') },
    codes: ['invalid_tool_syntax'],
  },
  {
    // The prompted lane's reader is lenient by design (DESIGN.md, rule 4): a repair there is no warning.
    name: 'a call whose arguments needed repair',
    lane: 'prompted',
    reply: { type: 'chat', content: call(`{"name": "Bash", "arguments": {'command': 'ls',}}`) },
    codes: [],
  },
  {
    name: 'a call to a tool that was not offered',
    lane: 'prompted',
    reply: { type: 'chat', content: call('{"name": "delete_all_files", "arguments": {}}') },
    codes: ['unavailable_tool'],
  },
  {
    name: 'a call cut off by the token limit',
    lane: 'prompted',
    reply: { type: 'chat', content: 'Searching.\n<tool_call>\n{"name": "Bash", "argu', finishReason: 'length' },
    codes: ['unparsed:unclosed'],
  },
  {
    name: 'a native call whose arguments are not JSON and cannot be repaired',
    lane: 'native',
    reply: { type: 'chat', toolCalls: [{ name: 'Bash', arguments: '{"command": ls -la' }] },
    codes: ['invalid-tool-arguments'],
  },
  {
    name: 'a native call whose arguments were repaired',
    lane: 'native',
    reply: { type: 'chat', toolCalls: [{ name: 'Bash', arguments: '{"command": "ls",' }] },
    codes: ['repaired-tool-arguments'],
  },
  {
    name: 'a native call whose arguments are JSON but not an object',
    lane: 'native',
    reply: { type: 'chat', toolCalls: [{ name: 'Bash', arguments: '[1, 2]' }] },
    codes: [],
    messagesCodes: ['invalid-tool-arguments'],
  },
  {
    name: 'a native call cut off by the token limit',
    lane: 'native',
    // Cut at the token limit: left as received, never repaired (closing it would invent the end of a value).
    reply: { type: 'chat', toolCalls: [{ name: 'Bash', arguments: '{"command": "ls' }], finishReason: 'length' },
    codes: ['tool-arguments-cut-off'],
  },
];

const schema = { type: 'object', properties: { command: { type: 'string' } } };

function requestBody(api: Api, lane: Case['lane'], stream: boolean): Record<string, unknown> {
  const common = { model: `${lane}/${model}`, stream };
  switch (api) {
    case 'chat-completions':
      return {
        ...common,
        messages: [{ role: 'user', content: 'List files' }],
        tools: [{ type: 'function', function: { name: 'Bash', parameters: schema } }],
      };
    case 'responses':
      return { ...common, input: 'List files', tools: [{ type: 'function', name: 'Bash', parameters: schema }] };
    case 'messages':
      return {
        ...common,
        max_tokens: 256,
        messages: [{ role: 'user', content: 'List files' }],
        tools: [{ name: 'Bash', input_schema: schema }],
      };
  }
}

/** The diagnostics of one reply as the client sees them: the body's, or the stream's (which must say them once, at the end). */
async function diagnosticsOf(api: Api, lane: Case['lane'], stream: boolean): Promise<WireDiagnostics | undefined> {
  const body = requestBody(api, lane, stream);
  if (!stream) {
    const path = { 'chat-completions': '/v1/chat/completions', responses: '/v1/responses', messages: '/v1/messages' }[api];
    const response = api === 'messages' ? await post(`${gateway.baseUrl}${path}`, body) : await postJson(`${gateway.baseUrl}${path}`, body);
    expect(response.status, response.text).toBe(200);
    return (JSON.parse(response.text) as { diagnostics?: WireDiagnostics }).diagnostics;
  }
  let carriers: { diagnostics?: WireDiagnostics }[];
  if (api === 'chat-completions') {
    const response = await postJson(`${gateway.baseUrl}/v1/chat/completions`, body);
    carriers = sseChunks(response.text).filter((chunk) => 'diagnostics' in chunk);
  } else if (api === 'responses') {
    const response = await postRawSse(gateway.baseUrl, body);
    carriers = response.events.flatMap(({ data }) => {
      const object = data.response as { diagnostics?: WireDiagnostics } | undefined;
      return object && 'diagnostics' in object && data.type !== 'response.created' && data.type !== 'response.in_progress' ? [object] : [];
    });
  } else {
    const response = await post(`${gateway.baseUrl}/v1/messages`, body);
    carriers = anthropicEvents(response.text).filter((event) => 'diagnostics' in event) as typeof carriers;
  }
  expect(carriers.length).toBeLessThanOrEqual(1);
  return carriers[0]?.diagnostics;
}

function codesOf(diagnostics: WireDiagnostics | undefined): string[] {
  if (!diagnostics) return [];
  return [
    ...(diagnostics.tool_call_error ? [diagnostics.tool_call_error.code] : []),
    ...(diagnostics.unparsed_tool_call ? [`unparsed:${diagnostics.unparsed_tool_call.reason}`] : []),
    ...(diagnostics.warnings ?? []).map((warning) => warning.code),
  ];
}

const apis: Api[] = ['chat-completions', 'responses', 'messages'];

describe.each(cases)('$lane lane, $name', ({ lane, reply, codes, messagesCodes }) => {
  it.each(apis)('%s: the same diagnostics streamed and not', async (api) => {
    upstream.enqueue({ ...reply, fragmentSize: 2 });
    const whole = codesOf(await diagnosticsOf(api, lane, false));
    upstream.enqueue({ ...reply, fragmentSize: 2 });
    const streamed = codesOf(await diagnosticsOf(api, lane, true));
    expect(streamed).toEqual(whole);
    expect(whole).toEqual(api === 'messages' ? (messagesCodes ?? codes) : codes);
  });
});

describe('Messages: a native call whose arguments are JSON but not an object', () => {
  it('streams no input for it, so the client reads {} as the non-streamed Message holds', async () => {
    const reply: FakeOpenAiChatReply = {
      type: 'chat',
      toolCalls: [{ id: 'call_array', name: 'Bash', arguments: ' [1, 2]' }],
      fragmentSize: 1,
    };
    upstream.enqueue(reply);
    const whole = JSON.parse((await post(`${gateway.baseUrl}/v1/messages`, requestBody('messages', 'native', false))).text) as {
      content: unknown[];
    };
    upstream.enqueue(reply);
    const events = anthropicEvents((await post(`${gateway.baseUrl}/v1/messages`, requestBody('messages', 'native', true))).text);
    expect(whole.content).toEqual([{ type: 'tool_use', id: 'call_array', name: 'Bash', input: {} }]);
    expect(accumulate(events).content).toEqual(whole.content);
  });
});
