/**
 * The body parser's nesting limit end to end: 100,000-deep tool parameters or metadata are a 400
 * naming the param in the API's envelope (they used to overflow the stack: a 500, or through the
 * anthropic provider a 502 "upstream unreachable"), while a body at the limit goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let gateway: StartedGateway;
let strict: StartedGateway;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream()]);
  const providers = {
    native: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'native' }),
    prompted: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'prompted' }),
    claude: testProvider('anthropic', anthropic.url, { apiKey: 'k' }),
  };
  gateway = await startGateway({ server: { bodyLimitBytes: 8 * 1024 * 1024 }, providers });
  strict = await startGateway({ server: { maxJsonDepth: 16 }, providers });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), strict?.close()]);
  await Promise.all([openai?.close(), anthropic?.close()]);
});

/** A JSON Schema text nested `levels` containers deep (JSON.stringify would overflow on the deep ones). */
function nestedSchema(levels: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(levels / 2)}{}${'}}'.repeat(levels / 2)}`;
}

function nestedObject(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

const userTurn = '[{"role":"user","content":"hi"}]';
const chatTools = (parameters: string) => `[{"type":"function","function":{"name":"f","description":"d","parameters":${parameters}}}]`;

function expectTooDeep(response: { status: number; text: string }, param: string, envelope: 'openai' | 'anthropic' = 'openai'): void {
  expect(response.status).toBe(400);
  const body = JSON.parse(response.text) as Record<string, unknown>;
  if (envelope === 'openai') {
    expect(body).toEqual({
      error: { message: expect.stringContaining('deeper than'), type: 'invalid_request_error', param, code: 'json_too_deep' },
    });
  } else {
    expect(body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining(`'${param}`) } });
  }
}

describe('nesting deeper than server.maxJsonDepth (128 by default)', () => {
  it.each(['native', 'prompted'])('refuses 100,000-deep tool parameters on Chat Completions (%s lane)', async (provider) => {
    const body = `{"model":"${provider}/m","messages":${userTurn},"tools":${chatTools(nestedSchema(100_000))}}`;
    expectTooDeep(await postJson(`${gateway.baseUrl}/v1/chat/completions`, body), 'tools[0].function.parameters');
  });

  it('refuses 100,000-deep metadata', async () => {
    const body = `{"model":"native/m","messages":${userTurn},"metadata":${nestedObject(100_000)}}`;
    expectTooDeep(await postJson(`${gateway.baseUrl}/v1/chat/completions`, body), 'metadata.a.a.a');
  });

  it('refuses deep input_schema on Messages in Anthropic’s envelope, not as a 502 from the anthropic provider', async () => {
    const body = `{"model":"claude/claude-sonnet-4-5","max_tokens":16,"messages":${userTurn},"tools":[{"name":"f","input_schema":${nestedSchema(100_000)}}]}`;
    expectTooDeep(await postJson(`${gateway.baseUrl}/v1/messages`, body), 'tools[0].input_schema', 'anthropic');
    expect(anthropic.messageRequests()).toHaveLength(0);
  });

  it('refuses deep tool parameters on Responses', async () => {
    const body = `{"model":"native/m","input":"hi","tools":[{"type":"function","name":"f","parameters":${nestedSchema(100_000)}}]}`;
    expectTooDeep(await postJson(`${gateway.baseUrl}/v1/responses`, body), 'tools[0].parameters.properties');
  });

  it('refuses a deep tool list every time it is resent, the turns when known lists are learnt included', async () => {
    const tools = chatTools(nestedSchema(1_000));
    for (let turn = 0; turn < 3; turn++) {
      const body = `{"model":"native/m","messages":${userTurn},"tools":${tools}}`;
      expectTooDeep(await postJson(`${gateway.baseUrl}/v1/chat/completions`, body), 'tools[0].function.parameters');
    }
  });

  it('accepts a body exactly at the limit and refuses one level more', async () => {
    // body 1, tools 2, tool 3, function 4: parameters adds its own levels from 5 on.
    openai.enqueue({ type: 'chat', content: 'ok' });
    const atLimit = await postJson(
      `${gateway.baseUrl}/v1/chat/completions`,
      `{"model":"native/m","messages":${userTurn},"tools":${chatTools(nestedObject(124))}}`,
    );
    expect(atLimit.status).toBe(200);
    const over = await postJson(
      `${gateway.baseUrl}/v1/chat/completions`,
      `{"model":"native/m","messages":${userTurn},"tools":${chatTools(nestedObject(125))}}`,
    );
    expectTooDeep(over, 'tools[0].function.parameters');
  });

  it('takes its limit from server.maxJsonDepth', async () => {
    const body = `{"model":"native/m","messages":${userTurn},"metadata":${nestedObject(16)}}`;
    expectTooDeep(await postJson(`${strict.baseUrl}/v1/chat/completions`, body), 'metadata.a.a.a');
  });
});
