/**
 * A schema Claude's grammar compiler gives up on past its documented limits ("Schema is too complex for
 * compilation.", "The compiled grammar is too large, …"): the same request goes again with the schema written
 * into the prompt and the reply checked by the gateway, the client is told in a warning, and the model and
 * schema are remembered (that schema skips the refused attempt; another schema is still tried natively).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { sseChunks } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeAnthropicUpstream;
let gateway: StartedGateway;
/** The gateway's clock (its refusal memories read it). */
let now = 0;

/** Sixty required string fields: within every explicit limit (no optional parameter, no union), but large. */
const largeSchema = {
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`field_${index}`, { type: 'string', enum: ['a', 'b', 'c'] }])),
  required: Array.from({ length: 60 }, (_, index) => `field_${index}`),
  additionalProperties: false,
};
const largeAnswer = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`field_${index}`, 'a']));
const smallSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream({ grammarLimit: { characters: 2_000, wording: 'too-complex' } });
  gateway = await startGateway(
    { providers: { claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test' }) } },
    { now: () => now },
  );
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

function ask(schema: Record<string, unknown>, options: { stream?: boolean; strict?: boolean } = {}): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude/claude-sonnet-4-5',
      max_tokens: 2000,
      stream: options.stream ?? false,
      messages: [{ role: 'user', content: 'Fill in the form.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'form', schema, strict: options.strict ?? true } },
    }),
  });
}

type Completion = { choices: { message: { content: string } }[]; diagnostics?: { warnings?: { code: string; message: string }[] } };
const sentNatively = (from: number) =>
  upstream
    .messageRequests()
    .slice(from)
    .map((request) => 'output_config' in (request.body as object));

describe('a schema the grammar compiler gives up on', () => {
  it('is sent again with the schema in the prompt: the reply checked, the client warned', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: JSON.stringify(largeAnswer) }] });
    const before = upstream.messageRequests().length;
    const response = await ask(largeSchema);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Completion;
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual(largeAnswer);
    const warnings = body.diagnostics?.warnings ?? [];
    expect(warnings).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining('Schema is too complex for compilation') as string,
    });
    // strict: true could not be kept, and the warning says why.
    expect(warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('gave up on this schema') as string,
    });
    expect(sentNatively(before)).toEqual([true, false]);
    expect(JSON.stringify(upstream.messageRequests().at(-1)!.body)).toContain('field_59');
  });

  it('is remembered for that schema: the next request (streamed) goes prompted at once', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: JSON.stringify(largeAnswer) }] });
    const before = upstream.messageRequests().length;
    const response = await ask(largeSchema, { stream: true });
    expect(response.status).toBe(200);
    const text = sseChunks(await response.text())
      .map((chunk) => (chunk as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '')
      .join('');
    expect(JSON.parse(text)).toEqual(largeAnswer);
    expect(sentNatively(before)).toEqual([false]);
  });

  it('another schema for the same model still goes natively', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: '{"city":"Oslo"}' }] });
    const before = upstream.messageRequests().length;
    const response = await ask(smallSchema);
    expect(response.status).toBe(200);
    expect(JSON.parse(((await response.json()) as Completion).choices[0]!.message.content)).toEqual({ city: 'Oslo' });
    expect(sentNatively(before)).toEqual([true]);
  });

  it('is forgotten after server.refusalMemoryMs: the native form is tried again', async () => {
    now += 600_000;
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: JSON.stringify(largeAnswer) }] });
    const before = upstream.messageRequests().length;
    const response = await ask(largeSchema, { strict: false });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(sentNatively(before)).toEqual([true, false]);
  });
});

describe('strict tools whose grammar the compiler gives up on', () => {
  let toolsUpstream: FakeAnthropicUpstream;
  let toolsGateway: StartedGateway;

  beforeAll(async () => {
    toolsUpstream = await startFakeAnthropicUpstream({ grammarLimit: { characters: 2_000, wording: 'too-large' } });
    toolsGateway = await startGateway({ providers: { claude: testProvider('anthropic', toolsUpstream.url, { apiKey: 'sk-ant-test' }) } });
  });

  afterAll(async () => {
    await toolsGateway.close();
    await toolsUpstream.close();
  });

  /** Three strict tools (as the OpenAI Agents SDK marks every tool), each with the large schema. */
  const strictTools = (prefix: string) =>
    ['a', 'b', 'c'].map((name) => ({ type: 'function', function: { name: `${prefix}_${name}`, strict: true, parameters: largeSchema } }));
  const call = (tools: unknown[]) =>
    fetch(`${toolsGateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude/claude-sonnet-4-5',
        max_tokens: 500,
        messages: [{ role: 'user', content: 'Fill it in.' }],
        tools,
      }),
    });
  const strictSent = (from: number) =>
    toolsUpstream
      .messageRequests()
      .slice(from)
      .map((request) => ((request.body as { tools?: { strict?: boolean }[] }).tools ?? []).some((tool) => tool.strict === true));

  it('go again without strict, with a warning naming the refusal; the same tools later go without strict at once', async () => {
    toolsUpstream.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'form_a', input: largeAnswer }] });
    let before = toolsUpstream.messageRequests().length;
    const response = await call(strictTools('form'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Completion & { choices: { message: { tool_calls?: { function: { name: string } }[] } }[] };
    expect(body.choices[0]!.message.tool_calls?.[0]?.function.name).toBe('form_a');
    expect(body.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('The compiled grammar is too large') as string,
    });
    expect(strictSent(before)).toEqual([true, false]);

    toolsUpstream.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'form_b', input: largeAnswer }] });
    before = toolsUpstream.messageRequests().length;
    const again = await call(strictTools('form'));
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(strictSent(before)).toEqual([false]);
  });

  it('other tools for the same model are still sent strict', async () => {
    toolsUpstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Nothing to call.' }] });
    const before = toolsUpstream.messageRequests().length;
    const small = [{ type: 'function', function: { name: 'lookup', strict: true, parameters: smallSchema } }];
    const response = await call(small);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(strictSent(before)).toEqual([true]);
  });
});
