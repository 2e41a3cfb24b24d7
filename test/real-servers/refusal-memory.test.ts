/**
 * A refusal the gateway remembered does not outlive `server.refusalMemoryMs`: vLLM started without a tool
 * parser refuses native tools and the model is prompted; restarted with `--enable-auto-tool-choice
 * --tool-call-parser`, it gets native tools back once the memory lapsed, without a gateway restart. The
 * gateway's clock is the test's.
 */
import { afterEach, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { askForWeather } from './weather-request.js';

let server: FakeInferenceServer | undefined;
let gateway: StartedGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  await server?.close();
  gateway = undefined;
  server = undefined;
});

it('tries native tools again once the refusal is forgotten, and a server restarted with a parser gets them', async () => {
  let now = 0;
  server = await startFakeVllmServer({ model: scriptedModel('hermes') });
  const { port } = server;
  gateway = await startGateway(
    { server: { refusalMemoryMs: 600_000 }, providers: { v: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, server: 'vllm' } } },
    { now: () => now, detectServers: true },
  );
  await waitForServerDetection(gateway);
  const expected = { name: weatherCall.name, arguments: weatherCall.arguments };
  expect(await askForWeather(gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'prompted', call: expected });
  // Native first, refused ("auto" tool choice requires --enable-auto-tool-choice …), then prompted.
  expect(server.bodiesOf('/v1/chat/completions').map((body) => body.tool_choice)).toEqual([undefined, 'none']);

  await server.close();
  server = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true, port });
  now = 599_999;
  expect(await askForWeather(gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'prompted', call: expected });
  const whileRemembered = server.bodiesOf('/v1/chat/completions');
  expect(whileRemembered.map((body) => body.tool_choice)).toEqual(['none']);

  now = 600_000;
  expect(await askForWeather(gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'native', call: expected });
  expect(server.bodiesOf('/v1/chat/completions').at(-1)?.tool_choice).toBeUndefined();
});
