/**
 * A refusal the gateway remembered does not outlive `server.refusalMemoryMs`: vLLM started without a tool
 * parser refuses native tools and the model is prompted; restarted with `--enable-auto-tool-choice
 * --tool-call-parser`, it gets native tools back once the memory lapsed, without a gateway restart. The
 * gateway's clock is the test's.
 */
import { expect, it } from 'vitest';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { askForWeather } from './weather-request.js';

const running = closedAfterEach();

it('tries native tools again once the refusal is forgotten, and a server restarted with a parser gets them', async () => {
  let now = 0;
  running.server = await startFakeVllmServer({ model: scriptedModel('hermes') });
  const { port } = running.server;
  running.gateway = await startGateway(
    {
      server: { refusalMemoryMs: 600_000 },
      providers: { v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1`, server: 'vllm' } },
    },
    { now: () => now, detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  const expected = { name: weatherCall.name, arguments: weatherCall.arguments };
  expect(await askForWeather(running.gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'prompted', call: expected });
  // Native first, refused ("auto" tool choice requires --enable-auto-tool-choice …), then prompted.
  expect(running.server.bodiesOf('/v1/chat/completions').map((body) => body.tool_choice)).toEqual([undefined, 'none']);

  await running.server.close();
  running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true, port });
  now = 599_999;
  expect(await askForWeather(running.gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'prompted', call: expected });
  const whileRemembered = running.server.bodiesOf('/v1/chat/completions');
  expect(whileRemembered.map((body) => body.tool_choice)).toEqual(['none']);

  now = 600_000;
  expect(await askForWeather(running.gateway, 'v/Qwen/Qwen3-8B')).toEqual({ lane: 'native', call: expected });
  expect(running.server.bodiesOf('/v1/chat/completions').at(-1)?.tool_choice).toBeUndefined();
});
