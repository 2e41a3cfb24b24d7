/**
 * Ollama models named as `ollama run` names them, without a tag (`llama3.1` for `llama3.1:latest`): the
 * lane read from `/api/show` at start applies from the first request, as it does to the tagged name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, type StartedGateway } from '../helpers/start-gateway.js';
import { weatherTools } from './weather-request.js';

const tools = weatherTools;

let server: FakeInferenceServer;
let gateway: StartedGateway;

beforeAll(async () => {
  // Llama 3.1 has the `tools` capability: Ollama parses its calls, so `auto` must pick native.
  server = await startFakeOllamaServer({ models: [{ ...scriptedModel('llama3'), ollamaName: 'llama3.1:latest' }] });
  gateway = await startGateway({ providers: { local: { type: 'ollama', baseUrl: server.url } } }, { detectServers: true });
  // An `ollama` provider's kind is its type, so /ready says `configured` at once: what was read of its
  // models shows in /v1/models, under the names Ollama lists.
  await waitForListedLane(gateway);
});

async function waitForListedLane(started: StartedGateway): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const listing = (await (await fetch(`${started.baseUrl}/v1/models`)).json()) as { data: { id: string; tool_calling?: string }[] };
    if (listing.data.some((entry) => entry.id === 'local/llama3.1:latest' && entry.tool_calling === 'native')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the listed model never showed its lane');
}

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('an untagged Ollama model name', () => {
  it('takes the lane of its :latest tag on the first request', async () => {
    const reply = await gateway
      .client()
      .chat.completions.create({ model: 'local/llama3.1', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
      .withResponse();
    expect(reply.response.headers.get('x-tool-calling')).toBe('native');
    const call = reply.data.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []).toEqual([
      weatherCall.name,
      weatherCall.arguments,
    ]);
    // Asked about at start under its listed name only, never again for the untagged one.
    expect(server.bodiesOf('/api/show').map((body) => body.model)).toEqual(['llama3.1:latest']);
  });
});
