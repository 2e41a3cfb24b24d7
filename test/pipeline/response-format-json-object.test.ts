/**
 * `response_format: {type: "json_object"}` where the upstream has no such mode: Claude's structured outputs
 * take a schema only, so the request is told in its prompt, and the reply checked, rather than sent nothing.
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
