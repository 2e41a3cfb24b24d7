/**
 * Log probabilities through llama-server's prompted lane (/apply-template, then /completion with `n_probs`,
 * tools/server/README.md), read by the real `openai` client: the content the parser passed on keeps its tokens,
 * whole and streamed, and the call's are withheld with a logprobs-partial warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../../helpers/fake-llama-server.js';
import { fakeTokenLogprob } from '../../helpers/fake-openai-upstream.js';
import { scriptedModel } from '../../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../../helpers/start-gateway.js';
import { weatherQuestion, weatherTools } from '../../real-servers/weather-request.js';
import type { Diagnosed } from '../../helpers/logprobs-replies.js';

let server: FakeInferenceServer;
let gateway: StartedGateway;

// InternLM2 writes a sentence before its call: that sentence is the reply's content.
const model = scriptedModel('internlm');
const served = 'llama/internlm2_5-7b-chat-Q4_K_M.gguf';

beforeAll(async () => {
  server = await startFakeLlamaServer({ model });
  gateway = await startGateway(
    { providers: { llama: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, toolCalling: 'prompted' } } },
    { detectServers: true },
  );
  await waitForServerDetection(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

/** The fake's tokens of 'I will look up the weather.' (four characters a token), with `top` candidates. */
const contentTokens = (top: number) =>
  ['I wi', 'll l', 'ook ', 'up t', 'he w', 'eath', 'er.'].map((token, position) => fakeTokenLogprob(token, position, top));

describe('llama-server prompted lane log probabilities', () => {
  it('a whole reply asks /completion for n_probs and returns the content tokens before the call', async () => {
    const completion = await gateway.client().chat.completions.create({
      model: served,
      messages: weatherQuestion,
      tools: weatherTools,
      logprobs: true,
      top_logprobs: 2,
    });
    expect(server.bodiesOf('/completion').at(-1)).toMatchObject({ n_probs: 2 });
    expect(completion.choices[0]?.message.content).toBe('I will look up the weather.');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
    expect(completion.choices[0]?.logprobs?.content).toEqual(contentTokens(2));
    expect((completion as Diagnosed).diagnostics?.warnings?.map((warning) => warning.code)).toEqual(['logprobs-partial']);
  });

  it('a streamed reply gives each content chunk its tokens', async () => {
    const stream = await gateway.client().chat.completions.create({
      model: served,
      messages: weatherQuestion,
      tools: weatherTools,
      logprobs: true,
      stream: true,
    });
    let content = '';
    const tokens: unknown[] = [];
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      tokens.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    }
    expect(server.bodiesOf('/completion').at(-1)).toMatchObject({ n_probs: 1, stream: true });
    expect(content).toBe('I will look up the weather.');
    expect(tokens).toEqual(contentTokens(0));
  });
});
