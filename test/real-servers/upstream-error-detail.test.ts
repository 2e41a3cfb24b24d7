/**
 * vLLM's refusals reach the client in the OpenAI envelope with their meaning: the field they name stays in
 * `param`, and vLLM's `code` (the HTTP status as a number) and `type` (a Python class name such as
 * `NotFoundError`) do not pose as an OpenAI error code.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, type StartedGateway } from '../helpers/start-gateway.js';

let server: FakeInferenceServer;
let gateway: StartedGateway;

beforeAll(async () => {
  server = await startFakeVllmServer({ model: scriptedModel('hermes'), servedModelName: 'my-model' });
  gateway = await startGateway({ providers: { v: { type: 'openai-compatible', baseUrl: `${server.url}/v1`, server: 'vllm' } } });
});

afterAll(async () => {
  await gateway.close();
  await server.close();
});

it("passes on vLLM's param, and no class name or status number as the code", async () => {
  const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'v/not-served', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({
    error: { message: 'The model `not-served` does not exist.', type: 'not_found_error', param: 'model', code: null },
  });
});
