/**
 * What each reply cost, end to end: the header, usage.cost_usd and the metric, for OpenAI (cached
 * tokens), Anthropic (cache reads and writes), Gemini (cachedContentTokenCount), a free local model and
 * config overrides. The expected cost is computed here from the price data package directly (its own
 * calcPrice) or from the config's rates, not through the gateway's price table.
 */
import { calcPrice } from '@pydantic/genai-prices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let gemini: FakeGeminiUpstream;
let gateway: StartedGateway;

/** Tokens as the provider reports them; `input` is the whole prompt (cache reads and writes included). */
type Tokens = { input: number; output: number; cacheRead?: number; cacheWrite?: number };

type PricedCase = {
  name: string;
  model: string;
  tokens: Tokens;
  /** The expected USD, computed from the package (provider id and model) or from rates per million tokens. */
  expected: { providerId: string; model: string } | { input: number; output: number; cacheRead?: number; cacheWrite?: number } | 'unpriced';
};

function expectedCost(testCase: PricedCase): number | undefined {
  const { tokens, expected } = testCase;
  if (expected === 'unpriced') return undefined;
  if ('providerId' in expected) {
    const usage: Record<string, number> = { input_tokens: tokens.input, output_tokens: tokens.output };
    if (tokens.cacheRead !== undefined) usage.cache_read_tokens = tokens.cacheRead;
    if (tokens.cacheWrite !== undefined) usage.cache_write_tokens = tokens.cacheWrite;
    const result = calcPrice(usage, expected.model, { providerId: expected.providerId });
    if (!result) throw new Error(`the price data has no ${expected.model}`);
    return result.total_price;
  }
  const uncached = tokens.input - (tokens.cacheRead ?? 0) - (tokens.cacheWrite ?? 0);
  return (
    (uncached * expected.input +
      (tokens.cacheRead ?? 0) * (expected.cacheRead ?? expected.input) +
      (tokens.cacheWrite ?? 0) * (expected.cacheWrite ?? expected.input) +
      tokens.output * expected.output) /
    1_000_000
  );
}

const cases: PricedCase[] = [
  {
    name: 'OpenAI, plain',
    model: 'openai/gpt-4o-mini',
    tokens: { input: 1_000, output: 200 },
    expected: { providerId: 'openai', model: 'gpt-4o-mini' },
  },
  {
    name: 'OpenAI, cached prompt',
    model: 'openai/gpt-4o-mini',
    tokens: { input: 5_000, output: 100, cacheRead: 4_096 },
    expected: { providerId: 'openai', model: 'gpt-4o-mini' },
  },
  {
    name: 'OpenAI gpt-4.1',
    model: 'openai/gpt-4.1',
    tokens: { input: 12_345, output: 678 },
    expected: { providerId: 'openai', model: 'gpt-4.1' },
  },
  {
    name: 'OpenAI gpt-4.1, cached',
    model: 'openai/gpt-4.1',
    tokens: { input: 20_000, output: 50, cacheRead: 19_200 },
    expected: { providerId: 'openai', model: 'gpt-4.1' },
  },
  {
    name: 'OpenAI gpt-4o',
    model: 'openai/gpt-4o',
    tokens: { input: 300, output: 1_500 },
    expected: { providerId: 'openai', model: 'gpt-4o' },
  },
  {
    name: 'OpenAI o3-mini',
    model: 'openai/o3-mini',
    tokens: { input: 2_000, output: 4_000 },
    expected: { providerId: 'openai', model: 'o3-mini' },
  },
  {
    name: 'OpenAI, output only',
    model: 'openai/gpt-4o-mini',
    tokens: { input: 0, output: 1_000 },
    expected: { providerId: 'openai', model: 'gpt-4o-mini' },
  },
  {
    name: 'Anthropic, plain',
    model: 'claude/claude-sonnet-4-5',
    tokens: { input: 1_000, output: 300 },
    expected: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    name: 'Anthropic, cache write',
    model: 'claude/claude-sonnet-4-5',
    tokens: { input: 5_000, output: 100, cacheWrite: 4_800 },
    expected: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    name: 'Anthropic, cache read',
    model: 'claude/claude-sonnet-4-5',
    tokens: { input: 5_000, output: 100, cacheRead: 4_800 },
    expected: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    name: 'Anthropic, read and write',
    model: 'claude/claude-sonnet-4-5',
    tokens: { input: 9_000, output: 700, cacheRead: 4_000, cacheWrite: 3_000 },
    expected: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    name: 'Anthropic, long context tier',
    model: 'claude/claude-sonnet-4-5',
    tokens: { input: 250_000, output: 1_000, cacheRead: 100_000 },
    expected: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  {
    name: 'Anthropic haiku',
    model: 'claude/claude-3-5-haiku-latest',
    tokens: { input: 800, output: 80 },
    expected: { providerId: 'anthropic', model: 'claude-3-5-haiku-latest' },
  },
  {
    name: 'Anthropic opus, cache write',
    model: 'claude/claude-opus-4-1',
    tokens: { input: 3_000, output: 400, cacheWrite: 2_500 },
    expected: { providerId: 'anthropic', model: 'claude-opus-4-1' },
  },
  {
    name: 'Gemini flash',
    model: 'google/gemini-2.5-flash',
    tokens: { input: 1_200, output: 340 },
    expected: { providerId: 'google', model: 'gemini-2.5-flash' },
  },
  {
    name: 'Gemini flash, cached',
    model: 'google/gemini-2.5-flash',
    tokens: { input: 40_000, output: 120, cacheRead: 32_000 },
    expected: { providerId: 'google', model: 'gemini-2.5-flash' },
  },
  {
    name: 'Gemini pro',
    model: 'google/gemini-2.5-pro',
    tokens: { input: 10_000, output: 2_000 },
    expected: { providerId: 'google', model: 'gemini-2.5-pro' },
  },
  {
    name: 'Gemini pro, over 200k',
    model: 'google/gemini-2.5-pro',
    tokens: { input: 210_000, output: 2_000, cacheRead: 50_000 },
    expected: { providerId: 'google', model: 'gemini-2.5-pro' },
  },
  { name: 'local model, free', model: 'local/qwen3-8b', tokens: { input: 4_000, output: 900 }, expected: { input: 0, output: 0 } },
  {
    name: 'local model, priced',
    model: 'rented/llama-3.1-70b',
    tokens: { input: 4_000, output: 900 },
    expected: { input: 0.6, output: 0.8 },
  },
  {
    name: 'override over the package',
    model: 'openai/gpt-4o-mini-custom',
    tokens: { input: 1_000, output: 1_000, cacheRead: 500 },
    expected: { input: 1, output: 2, cacheRead: 0.5 },
  },
  { name: 'no price known', model: 'unpriced/mystery-model', tokens: { input: 100, output: 10 }, expected: 'unpriced' },
];

function script(testCase: PricedCase): void {
  const { tokens } = testCase;
  const provider = testCase.model.slice(0, testCase.model.indexOf('/'));
  if (provider === 'claude')
    anthropic.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'priced' }],
      // Anthropic counts cache reads and writes apart from input_tokens.
      usage: {
        input_tokens: tokens.input - (tokens.cacheRead ?? 0) - (tokens.cacheWrite ?? 0),
        output_tokens: tokens.output,
        cache_read_input_tokens: tokens.cacheRead ?? 0,
        cache_creation_input_tokens: tokens.cacheWrite ?? 0,
      },
    });
  else if (provider === 'google')
    gemini.enqueue({
      type: 'generate',
      chunks: [[{ text: 'priced' }]],
      usage: {
        promptTokenCount: tokens.input,
        candidatesTokenCount: tokens.output,
        ...(tokens.cacheRead === undefined ? {} : { cachedContentTokenCount: tokens.cacheRead }),
      },
    });
  else
    openai.enqueue({
      type: 'chat',
      content: 'priced',
      usage: {
        prompt_tokens: tokens.input,
        completion_tokens: tokens.output,
        ...(tokens.cacheRead === undefined ? {} : { prompt_tokens_details: { cached_tokens: tokens.cacheRead } }),
      },
    });
}

beforeAll(async () => {
  [openai, anthropic, gemini] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream(), startFakeGeminiUpstream()]);
  const openaiCompatible = () => testProvider('openai-compatible', `${openai.url}/v1`, { server: 'generic', toolCalling: 'native' });
  gateway = await startGateway({
    providers: {
      openai: testProvider('openai', `${openai.url}/v1`, { apiKey: 'sk-upstream' }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'sk-ant-upstream', defaultMaxTokens: 1024 }),
      google: testProvider('gemini', gemini.url, { apiKey: 'upstream-key' }),
      local: openaiCompatible(),
      rented: openaiCompatible(),
      unpriced: openaiCompatible(),
    },
    // A rented model that fails hands over to the priced local one: the reply is priced at the target that answered.
    fallbacks: { 'rented/flaky': ['openai/gpt-4o-mini'] },
    prices: {
      'local/*': { input: 0, output: 0 },
      'rented/llama-3.1-70b': { input: 0.6, output: 0.8 },
      'openai/gpt-4o-mini-custom': { input: 1, output: 2, cacheRead: 0.5 },
    },
  });
});

afterAll(async () => {
  await gateway.close();
  await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
});

describe('cost per request', () => {
  it.each(cases)('$name: header and usage.cost_usd agree with the price data', async (testCase) => {
    script(testCase);
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: testCase.model, messages: [{ role: 'user', content: 'price me' }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { usage: { cost_usd?: number; prompt_tokens: number } };
    expect(body.usage.prompt_tokens).toBe(testCase.tokens.input);
    const expected = expectedCost(testCase);
    if (expected === undefined) {
      expect(response.headers.get('x-interlingua-cost-usd')).toBeNull();
      expect(body.usage.cost_usd).toBeUndefined();
      return;
    }
    expect(body.usage.cost_usd).toBeCloseTo(expected, 10);
    expect(Number(response.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(expected, 9);
  });

  it('streams carry the cost in the final usage chunk, and /metrics sums it per key, provider and model', async () => {
    openai.enqueue({ type: 'chat', content: 'streamed', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } });
    const stream = await gateway.client().chat.completions.create({
      model: 'rented/llama-3.1-70b',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    let cost: number | undefined;
    for await (const chunk of stream) cost = (chunk.usage as { cost_usd?: number } | null | undefined)?.cost_usd ?? cost;
    expect(cost).toBeCloseTo(0.6, 10);
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    const line = metrics.split('\n').find((text) => text.startsWith('interlingua_cost_usd_total{') && text.includes('provider="rented"'));
    expect(line).toBeDefined();
    // 0.6 streamed here, and 4,000 × 0.6 + 900 × 0.8 per million in the table.
    expect(Number(line!.split(' ').pop())).toBeCloseTo(0.6 + 0.00312, 8);
  });

  it('the Messages API carries the cost and the cache counts in its own usage', async () => {
    anthropic.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'priced' }],
      usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 2_000, cache_creation_input_tokens: 500 },
    });
    const response = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude/claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { usage: Record<string, number> };
    expect(body.usage).toMatchObject({
      input_tokens: 100,
      cache_read_input_tokens: 2_000,
      cache_creation_input_tokens: 500,
      output_tokens: 10,
    });
    const expected = calcPrice(
      { input_tokens: 2_600, output_tokens: 10, cache_read_tokens: 2_000, cache_write_tokens: 500 },
      'claude-sonnet-4-5',
      { providerId: 'anthropic' },
    )!.total_price;
    expect(body.usage.cost_usd).toBeCloseTo(expected, 10);
    expect(Number(response.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(expected, 9);
  });

  it('a fallback that answered is priced at its own rates, whole and streamed, and says which target it was', async () => {
    const usage = { prompt_tokens: 2_000, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 1_024 } };
    const expected = calcPrice({ input_tokens: 2_000, output_tokens: 300, cache_read_tokens: 1_024 }, 'gpt-4o-mini', {
      providerId: 'openai',
    })!.total_price;
    openai.enqueue({ type: 'http-error', status: 503, message: 'overloaded' }, { type: 'chat', content: 'answered', usage });
    const whole = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rented/flaky', input: 'hi' }),
    });
    expect(whole.headers.get('x-interlingua-model')).toBe('openai/gpt-4o-mini');
    expect(Number(whole.headers.get('x-interlingua-cost-usd'))).toBeCloseTo(expected, 9);
    expect(((await whole.json()) as { usage: { cost_usd: number } }).usage.cost_usd).toBeCloseTo(expected, 10);
    openai.enqueue({ type: 'http-error', status: 503, message: 'overloaded' }, { type: 'chat', content: 'answered', usage });
    const streamed = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'rented/flaky', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(streamed.headers.get('x-interlingua-model')).toBe('openai/gpt-4o-mini');
    const delta = (await streamed.text()).split('\n').find((line) => line.startsWith('data: {"type":"message_delta"'));
    expect((JSON.parse(delta!.slice(6)) as { usage: { cost_usd: number } }).usage.cost_usd).toBeCloseTo(expected, 10);
  });

  it('Responses and Chat streams price cached prompt tokens at the cache rate and reasoning as the output it is part of', async () => {
    // OpenAI counts reasoning inside completion_tokens and cached tokens inside prompt_tokens.
    const usage = {
      prompt_tokens: 3_000,
      completion_tokens: 2_000,
      prompt_tokens_details: { cached_tokens: 2_048 },
      completion_tokens_details: { reasoning_tokens: 1_500 },
    };
    const expected = calcPrice({ input_tokens: 3_000, output_tokens: 2_000, cache_read_tokens: 2_048 }, 'o3-mini', {
      providerId: 'openai',
    })!.total_price;
    openai.enqueue({ type: 'chat', content: 'thought', usage });
    const responses = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/o3-mini', input: 'hi', stream: true }),
    });
    const completed = (await responses.text()).split('\n').find((line) => line.startsWith('data: {"type":"response.completed"'));
    const completedUsage = (JSON.parse(completed!.slice(6)) as { response: { usage: Record<string, unknown> } }).response.usage;
    expect(completedUsage).toMatchObject({
      output_tokens_details: { reasoning_tokens: 1_500 },
      input_tokens_details: { cached_tokens: 2_048 },
    });
    expect(completedUsage.cost_usd).toBeCloseTo(expected, 10);
    openai.enqueue({ type: 'chat', content: 'thought', usage });
    const stream = await gateway.client().chat.completions.create({
      model: 'openai/o3-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    let cost: number | undefined;
    for await (const chunk of stream) cost = (chunk.usage as { cost_usd?: number } | null | undefined)?.cost_usd ?? cost;
    expect(cost).toBeCloseTo(expected, 10);
  });

  it('a model without a price carries no cost on any API, streamed or whole', async () => {
    openai.enqueue({ type: 'chat', content: 'free' }, { type: 'chat', content: 'free' });
    const messages = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'unpriced/mystery-model', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const delta = (await messages.text()).split('\n').find((line) => line.startsWith('data: {"type":"message_delta"'));
    expect((JSON.parse(delta!.slice(6)) as { usage: Record<string, unknown> }).usage).not.toHaveProperty('cost_usd');
    const responses = await fetch(`${gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'unpriced/mystery-model', input: 'hi' }),
    });
    expect(responses.headers.get('x-interlingua-cost-usd')).toBeNull();
    expect(((await responses.json()) as { usage: Record<string, unknown> }).usage).not.toHaveProperty('cost_usd');
  });
});
