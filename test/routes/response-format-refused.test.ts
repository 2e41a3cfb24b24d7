/**
 * An upstream that refuses the native form of a JSON response format (Claude on Vertex AI where
 * `output_config` is not enabled, a Claude model before structured outputs): the same request is sent again
 * with the schema written into the prompt and the reply checked by the gateway, the client is told in a
 * warning, and later requests for that model go that way at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let upstream: FakeAnthropicUpstream;
let gateway: StartedGateway;
/** The gateway's clock (its refusal memories read it). */
let now = 0;

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
  upstream.setFallback((request) =>
    (request.body as { output_config?: unknown }).output_config
      ? { type: 'http-error', status: 400, message: 'output_config.format: structured outputs are not supported for this model.' }
      : { type: 'message', content: [{ type: 'text', text: 'Here it is: {"city": "Paris", "celsius": 21}' }] },
  );
  gateway = await startGateway(
    { providers: { claude: testProvider('anthropic', upstream.url, { apiKey: 'sk-ant-test' }) } },
    { now: () => now },
  );
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

function ask(): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude/claude-3-haiku-20240307',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Weather in Paris as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } },
    }),
  });
}

describe('a refused native response format', () => {
  it('is enforced by the gateway instead: the schema in the prompt, the reply checked, a warning', async () => {
    const response = await ask();
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      choices: { message: { content: string } }[];
      diagnostics?: { warnings?: { code: string; message: string }[] };
    };
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ city: 'Paris', celsius: 21 });
    expect(body.diagnostics?.warnings?.map((warning) => warning.message).join('\n')).toContain('refused the native response format');
    const [refused, prompted] = upstream
      .messageRequests()
      .slice(-2)
      .map((request) => request.body as Record<string, unknown>);
    expect(refused?.output_config).toBeDefined();
    expect(prompted?.output_config).toBeUndefined();
    expect(JSON.stringify(prompted?.system ?? prompted?.messages)).toContain('celsius');
  });

  it('is remembered for the model: the next request is sent with the schema in the prompt at once', async () => {
    const before = upstream.messageRequests().length;
    const response = await ask();
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(upstream.messageRequests().length).toBe(before + 1);
    expect((upstream.messageRequests().at(-1)!.body as Record<string, unknown>).output_config).toBeUndefined();
  });

  it('is forgotten after server.refusalMemoryMs (ten minutes by default): the native form is tried again', async () => {
    now += 600_000;
    const before = upstream.messageRequests().length;
    const response = await ask();
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const [retried, prompted] = upstream
      .messageRequests()
      .slice(before)
      .map((request) => request.body as Record<string, unknown>);
    expect(retried?.output_config).toBeDefined();
    expect(prompted?.output_config).toBeUndefined();
  });
});
