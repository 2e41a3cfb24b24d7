/**
 * A json_schema format without a schema (OpenAI's `json_schema.schema` is optional): Claude and Bedrock's
 * Converse constrain replies only to a schema, so nothing native can carry it, and the model must be told
 * in the prompt to answer JSON, as for json_object; the reply is checked as JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
