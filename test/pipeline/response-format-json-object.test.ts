/**
 * `response_format: {type: "json_object"}` where the upstream has no such mode: Claude's structured outputs
 * take a schema only, so the request is told in its prompt, and the reply checked, rather than sent nothing.
 * So is a json_schema format without a schema (OpenAI's `json_schema.schema` is optional): nothing native
 * can carry it on Claude or Bedrock's Converse, which constrain replies only to a schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takesJsonObjectNatively } from '../../src/core/provider-types.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeAnthropicUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
  gateway = await startGateway({ providers: { claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test' }) } });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('json_object without a native form', () => {
  it('Claude is asked for a JSON object in its system prompt, and the JSON it wraps in prose is returned', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Here you go: {"capital": "Paris"}' }] });
    const completion = await gateway.client().chat.completions.create({
      model: 'claude/claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Capital of France?' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ capital: 'Paris' });
    const sent = upstream.messageRequests().at(-1)!.body as { system?: unknown; output_config?: unknown };
    expect(JSON.stringify(sent.system)).toContain('a single JSON object');
    expect(sent.output_config).toBeUndefined();
  });

  it('is decided per model: Claude on Vertex AI and Bedrock have no json_object mode, Gemini on Vertex AI and OpenAI do', () => {
    expect(takesJsonObjectNatively('bedrock', 'amazon.nova-pro-v1:0')).toBe(false);
    expect(takesJsonObjectNatively('anthropic', 'claude-sonnet-4-5')).toBe(false);
    expect(takesJsonObjectNatively('vertex', 'claude-sonnet-4-5@20250929')).toBe(false);
    expect(takesJsonObjectNatively('vertex', 'gemini-2.5-pro')).toBe(true);
    expect(takesJsonObjectNatively('openai', 'gpt-4.1')).toBe(true);
  });
});

describe('a json_schema response format without a schema, on Claude', () => {
  it('is written into the prompt (no output_config can carry it), named, and the reply checked as JSON', async () => {
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'Here: {"anything": [1, 2]}' }] });
    const completion = await gateway.client().chat.completions.create({
      model: 'claude/claude-sonnet-4-5',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Anything as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'free_form' } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ anything: [1, 2] });
    const sent = upstream.messageRequests().at(-1)!.body as { system?: unknown; output_config?: unknown };
    expect(sent.output_config).toBeUndefined();
    expect(JSON.stringify(sent.system)).toContain('a single JSON value named \\"free_form\\"');
    // No schema to quote: the prompt does not pretend there is one.
    expect(JSON.stringify(sent.system)).not.toContain('JSON Schema');
  });
});
