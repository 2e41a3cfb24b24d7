/**
 * /v1/messages in front of a prompted-lane model: a rejected call, an unclosed call and an orphan
 * `</think>` reach the Messages client as `diagnostics` (top level of the Message, or on `message_delta`
 * when streamed), and a plain reply carries no such field. Raw HTTP: the project has no Anthropic SDK.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../../helpers/gateway-with-openai-upstream.js';
import type { StartedGateway } from '../../helpers/start-gateway.js';
import { accumulate, anthropicEvents, messagesBody, post, type WireEvent } from './messages-test-kit.js';

type Schemas = Record<string, { properties?: Record<string, unknown> }>;
const openapi = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as { components: { schemas: Schemas } };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...openapi, $id: 'openapi' });
const validateMessage = ajv.compile({ $ref: 'openapi#/components/schemas/Message' });
const validateDiagnostics = ajv.compile({ $ref: 'openapi#/components/schemas/Diagnostics' });

/** The body matches openapi.yaml's schema, and its diagnostics use only the documented fields. */
function expectDocumented(validate: typeof validateMessage, value: unknown, diagnostics: unknown): void {
  expect(validate(value) ? [] : validate.errors).toEqual([]);
  const documented = Object.keys(openapi.components.schemas.Diagnostics?.properties ?? {});
  for (const key of Object.keys(diagnostics as object)) expect(documented).toContain(key);
}

let kit: GatewayWithOpenAiUpstream;
let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  kit = await startGatewayWithOpenAiUpstream({ local: 'prompted' });
  ({ upstream, gateway } = kit);
});

afterAll(async () => {
  await kit?.close();
});

const tools = [
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];

type Reply = { content: string; finishReason?: string };

/** Each case: what the model wrote, and the diagnostics the client must be told. */
const cases: { name: string; reply: Reply; diagnostics: Record<string, unknown> }[] = [
  {
    name: 'a call to a tool that was not offered (unavailable_tool)',
    reply: { content: 'Sure.\n<tool_call>\n{"name": "delete_all_files", "arguments": {}}\n</tool_call>' },
    diagnostics: {
      tool_call_error: {
        code: 'unavailable_tool',
        message: expect.stringContaining('delete_all_files'),
        available_tools: ['Bash', 'Read'],
      },
    },
  },
  {
    name: 'a call cut off by the token limit (unparsed, unclosed)',
    reply: { content: 'Searching.\n<tool_call>\n{"name": "Bash", "argu', finishReason: 'length' },
    diagnostics: {
      unparsed_tool_call: { format: 'hermes', text: expect.stringContaining('{"name": "Bash", "argu'), reason: 'unclosed' },
    },
  },
  {
    name: 'an orphan </think> (a reasoning warning)',
    reply: { content: 'Plain answer.</think> The rest.' },
    diagnostics: { warnings: [expect.objectContaining({ code: 'reasoning-orphan-close' })] },
  },
];

function messagesRequest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return messagesBody('local/Qwen/Qwen2.5-7B-Instruct', { tools, ...extra });
}

describe.each(cases)('prompted lane over /v1/messages: $name', ({ reply, diagnostics }) => {
  it('non-streamed: top-level diagnostics on the Message', async () => {
    upstream.enqueue({ type: 'chat', ...reply });
    const response = await post(`${gateway.baseUrl}/v1/messages`, messagesRequest());
    expect(response.status).toBe(200);
    expect(response.headers.get('x-tool-calling')).toBe('prompted');
    const message = JSON.parse(response.text) as Record<string, unknown>;
    expect(message.type).toBe('message');
    expect(message.diagnostics).toEqual(diagnostics);
    expectDocumented(validateMessage, message, message.diagnostics);
  });

  it('streamed: diagnostics on message_delta, the last event before message_stop', async () => {
    upstream.enqueue({ type: 'chat', ...reply, fragmentSize: 2 });
    const response = await post(`${gateway.baseUrl}/v1/messages`, messagesRequest({ stream: true }));
    expect(response.status).toBe(200);
    const events = anthropicEvents(response.text);
    expect(events.map((event) => event.type).slice(-2)).toEqual(['message_delta', 'message_stop']);
    const delta = events.at(-2) as WireEvent;
    expect(Object.keys(delta).sort()).toEqual(['delta', 'diagnostics', 'type', 'usage']);
    expect(accumulate(events).diagnostics).toEqual(diagnostics);
    expectDocumented(validateDiagnostics, delta.diagnostics, delta.diagnostics);
    // Only the last event says it: nothing earlier carries diagnostics.
    expect(events.slice(0, -2).filter((event) => 'diagnostics' in event)).toEqual([]);
  });
});

describe('prompted lane over /v1/messages: a plain reply', () => {
  it('non-streamed: no diagnostics field at all', async () => {
    upstream.enqueue({ type: 'chat', content: 'Just text.' });
    const response = await post(`${gateway.baseUrl}/v1/messages`, messagesRequest());
    const message = JSON.parse(response.text) as Record<string, unknown>;
    expect(message.content).toEqual([{ type: 'text', text: 'Just text.' }]);
    expect(message).not.toHaveProperty('diagnostics');
    expectDocumented(validateMessage, message, {});
  });

  it('streamed: message_delta has no diagnostics field', async () => {
    upstream.enqueue({ type: 'chat', content: 'Just text.' });
    const response = await post(`${gateway.baseUrl}/v1/messages`, messagesRequest({ stream: true }));
    const events = anthropicEvents(response.text);
    const delta = events.find((event) => event.type === 'message_delta') as WireEvent;
    expect(delta).toBeDefined();
    expect(Object.keys(delta).sort()).toEqual(['delta', 'type', 'usage']);
    expect(events.filter((event) => 'diagnostics' in event)).toEqual([]);
  });
});
