/**
 * llama-server without Jinja (`--no-jinja`, or a build from before it was on by default): it refuses every
 * body with tools, /apply-template included, so the prompted lane must write the tools into the prompt
 * itself, whether `auto` found that out from the native refusal or the provider is set to `prompted`.
 */
import { describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { askForWeather } from './weather-request.js';

const running = closedAfterEach();

/** The /apply-template bodies that carried tools: each one a 500 from a server without Jinja. */
const templateBodiesWithTools = (started: FakeInferenceServer) =>
  started.bodiesOf('/apply-template').filter((body) => Array.isArray(body.tools));

describe('llama-server without Jinja', () => {
  it.each(['auto', 'prompted'] as const)(
    'toolCalling %s: a Qwen3 gets its tools in the prompt and its call comes back structured, the refusal remembered',
    async (toolCalling) => {
      running.server = await startFakeLlamaServer({ model: scriptedModel('hermes'), noJinja: true });
      running.gateway = await startGateway(
        { providers: { llama: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1`, toolCalling } } },
        { detectServers: true },
      );
      await waitForServerDetection(running.gateway);
      const expected = { lane: 'prompted', call: { name: weatherCall.name, arguments: weatherCall.arguments } };
      expect(await askForWeather(running.gateway, 'llama/Qwen3-8B-Q4_K_M.gguf')).toEqual(expected);
      const refusedSoFar = templateBodiesWithTools(running.server).length;
      expect(await askForWeather(running.gateway, 'llama/Qwen3-8B-Q4_K_M.gguf')).toEqual(expected);
      // The second request went straight to the gateway's own rendering.
      expect(templateBodiesWithTools(running.server)).toHaveLength(refusedSoFar);
      const prompts = running.server.bodiesOf('/completion').map((body) => String(body.prompt));
      expect(prompts.at(-1)).toContain(weatherCall.name);
    },
  );
});
