/**
 * POST /v1/tool-calls/parse: a model's text gives what a chat reply with that text gives (the same calls,
 * content, reasoning and diagnostics), whatever the chunking; a family or model name picks the syntax.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectedTools } from './inspected-tools.js';
import { startGateway, type StartedGateway } from '../../helpers/start-gateway.js';

const tools = inspectedTools;

/** Replies in several families' syntax, each with something the parser must decide about. */
const samples: { model: string; text: string }[] = [
  { model: 'qwen3-8b', text: 'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Zürich", "days": 2}}\n</tool_call>' },
  { model: 'qwen3-8b', text: '<think>The user wants files.</think>Reading.<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>' },
  { model: 'qwen3-8b', text: 'Cut off: <tool_call>{"name": "get_weather", "arguments": {"city": "Par' },
  {
    model: 'qwen3-coder-30b-a3b-instruct',
    text: '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>',
  },
  { model: 'mistral-small-3.2', text: '[TOOL_CALLS]get_weather[ARGS]{"city": "Lyon"}' },
  {
    model: 'gpt-oss-20b',
    text: '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Oslo"}<|call|>',
  },
  { model: 'llama-3.1-8b-instruct', text: '{"name": "read_file", "parameters": {"path": "a.txt"}}' },
  { model: 'qwen3-8b', text: 'Just an answer, no call: {"name": "x"} stays text.' },
];

let gateway: StartedGateway;

beforeAll(async () => {
  const directory = await mkdtemp(join(tmpdir(), 'parse-route-'));
  const providers: Record<string, Record<string, unknown>> = {};
  // One scripted provider per sample, replaying its text as the model's reply: the chat side of the comparison.
  for (const [index, sample] of samples.entries()) {
    const script = join(directory, `sample-${index}.json`);
    await writeFile(script, JSON.stringify({ turns: [{ raw: sample.text }] }));
    providers[`sample${index}`] = { type: 'scripted', script, toolCalling: 'prompted' };
  }
  gateway = await startGateway({ providers });
});

afterAll(async () => {
  await gateway?.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The parts of a reply the inspector shows, call ids left out (they are minted per reply). */
function comparable(calls: unknown, content: unknown, reasoning: unknown, diagnostics: unknown) {
  const named = ((calls as { function: { name: string; arguments: string } }[] | undefined) ?? []).map((call) => call.function);
  return { calls: named, content: content ?? '', reasoning: reasoning ?? '', diagnostics: diagnostics ?? null };
}

describe('POST /v1/tool-calls/parse', () => {
  it.each(samples.map((sample, index) => ({ ...sample, index })))(
    'gives what a chat reply gives for $model: $text',
    async ({ model, text, index }) => {
      const completion = await gateway
        .client()
        .chat.completions.create({ model: `sample${index}/${model}`, messages: [{ role: 'user', content: 'go' }], tools });
      const message = completion.choices[0]?.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
      const diagnostics = (completion as unknown as { diagnostics?: unknown }).diagnostics;
      const parsed = await post('/v1/tool-calls/parse', { model, text, tools });
      expect(parsed.status).toBe(200);
      expect(comparable(parsed.body.calls, parsed.body.content, parsed.body.reasoning, parsed.body.diagnostics)).toEqual(
        comparable(message.tool_calls, message.content, message.reasoning_content, diagnostics),
      );
    },
  );

  it('gives the same result for any chunking of the text', async () => {
    const sample = samples[5] as { model: string; text: string };
    const whole = await post('/v1/tool-calls/parse', { ...sample, tools });
    const expected = comparable(whole.body.calls, whole.body.content, whole.body.reasoning, whole.body.diagnostics);
    expect(expected.calls).toEqual([{ name: 'get_weather', arguments: '{"city":"Oslo"}' }]);
    expect(expected.reasoning).toBe('Need weather.');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 }), async (chunking) => {
        const split = await post('/v1/tool-calls/parse', { ...sample, tools, chunking });
        expect(comparable(split.body.calls, split.body.content, split.body.reasoning, split.body.diagnostics)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('says which family it used and why: named, from a configured model, or from the name', async () => {
    const named = await post('/v1/tool-calls/parse', { family: 'mistral', text: 'hi', tools });
    expect(named.body).toMatchObject({ family: 'mistral', family_source: 'family' });
    const byName = await post('/v1/tool-calls/parse', { model: 'Qwen/Qwen3-Coder-480B-A35B-Instruct', text: 'hi', tools });
    expect(byName.body).toMatchObject({ family: 'qwen3-coder', family_source: 'model-name' });
    const configured = await post('/v1/tool-calls/parse', { model: 'sample0/gpt-oss-120b', text: 'hi', tools });
    expect(configured.body).toMatchObject({ family: 'harmony', family_source: 'config', model: 'sample0/gpt-oss-120b' });
  });

  it('starts inside reasoning for a model whose template opens it (Apriel: up to [BEGIN FINAL RESPONSE])', async () => {
    const text =
      'The user wants weather.\n[BEGIN FINAL RESPONSE]\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>[END FINAL RESPONSE]';
    const parsed = await post('/v1/tool-calls/parse', { model: 'ServiceNow-AI/Apriel-1.6-15b-Thinker', text, tools, chunking: 3 });
    expect(parsed.body).toMatchObject({
      family: 'apriel',
      opens_in_reasoning: 'by-default',
      reasoning: 'The user wants weather.',
      calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
  });

  it('parses nothing without tools, as a reply would not', async () => {
    const parsed = await post('/v1/tool-calls/parse', { model: 'qwen3-8b', text: samples[0]?.text });
    expect(parsed.body.calls).toEqual([]);
    expect(parsed.body.content).toBe(samples[0]?.text);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    expect(await post('/v1/tool-calls/parse', { model: 'qwen3-8b' })).toMatchObject({ status: 400, body: { error: { param: 'text' } } });
    expect(await post('/v1/tool-calls/parse', { family: 'klingon', text: 'x' })).toMatchObject({
      status: 400,
      body: { error: { code: 'unknown_family', param: 'family' } },
    });
    expect(await post('/v1/tool-calls/parse', { text: 'x' })).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
    expect(await post('/v1/tool-calls/parse', { model: 'm', text: 'x', chunking: 0 })).toMatchObject({
      status: 400,
      body: { error: { param: 'chunking' } },
    });
    const duplicate = await post('/v1/tool-calls/parse', { model: 'm', text: 'x', tools: [tools[0], tools[0]] });
    expect(duplicate).toMatchObject({ status: 400, body: { error: { code: 'duplicate_tool_name' } } });
  });

  it('refuses chunking that is not a positive integer, and a text split into too many chunks, with a 400', async () => {
    for (const chunking of [-1, 1.5, [], [2, 0], '3'])
      expect(await post('/v1/tool-calls/parse', { model: 'm', text: 'x', chunking }), JSON.stringify(chunking)).toMatchObject({
        status: 400,
        body: { error: { type: 'invalid_request_error', param: expect.stringMatching(/^chunking/) } },
      });
    // 200,000 characters a character at a time would be 200,000 parser pushes holding the event loop.
    const tooMany = await post('/v1/tool-calls/parse', { model: 'm', text: 'a'.repeat(200_000), chunking: 1 });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { error: { param: 'chunking', message: expect.stringContaining('100000 chunks') } },
    });
    expect(await post('/v1/tool-calls/parse', { model: 'm', text: 'a'.repeat(200_000), chunking: 2 })).toMatchObject({ status: 200 });
  });

  it('answers a body over the limit, a 100,000-deep schema and __proto__ keys with 4xx in the OpenAI envelope, never a 500', async () => {
    const huge = await fetch(`${gateway.baseUrl}/v1/tool-calls/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', text: 'a'.repeat(33 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    let schema = '{"type":"object"}';
    for (let depth = 0; depth < 100_000; depth++) schema = `{"type":"object","properties":{"a":${schema}}}`;
    for (const path of ['/v1/tool-calls/parse', '/v1/tool-calls/render']) {
      const deep = await fetch(`${gateway.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"model":"m","text":"x","tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`,
      });
      expect(deep.status, path).toBe(400);
      expect(await deep.json()).toMatchObject({ error: { code: 'json_too_deep', param: 'tools[0].function.parameters' } });
    }
    const prototypeKey = await fetch(`${gateway.baseUrl}/v1/tool-calls/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":"m","text":"x","__proto__":{"polluted":true}}',
    });
    expect(prototypeKey.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // As call arguments, `__proto__` is data like any key, handed on verbatim.
    const asArguments = await post('/v1/tool-calls/parse', {
      family: 'hermes',
      text: '<tool_call>{"name": "read_file", "arguments": {"__proto__": {"path": "x"}}}</tool_call>',
      tools,
    });
    expect(asArguments).toMatchObject({ status: 200, body: { calls: [{ function: { arguments: '{"__proto__":{"path":"x"}}' } }] } });
  });

  it('reads call arguments nested 100,000 deep as an unreadable call (diagnostics), not a 500', async () => {
    const depth = 100_000;
    const text = `<tool_call>{"name": "get_weather", "arguments": {"city": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}</tool_call>`;
    expect(await post('/v1/tool-calls/parse', { family: 'hermes', text, tools })).toMatchObject({
      status: 200,
      body: {
        calls: [],
        diagnostics: { tool_call_error: { code: 'invalid_tool_syntax', message: expect.stringContaining('Too deeply nested') } },
      },
    });
  });
});
