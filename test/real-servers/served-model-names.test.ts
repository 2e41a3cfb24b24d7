/**
 * Models served under a name that names no family (`vllm serve Qwen/Qwen3-8B --served-model-name my-model`,
 * `llama-server -m Qwen3-8B-Q4_K_M.gguf --alias my-model`, an Ollama model made with `ollama create`): the
 * family comes from what the server reports the model to be, unless the config names one.
 */
import { describe, expect, it } from 'vitest';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway, type TestConfigFile } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { weatherQuestion, weatherTools } from './weather-request.js';

const tools = weatherTools;
const messages = weatherQuestion;

const running = closedAfterEach();

type Resolved = { family: string; family_source: string; tool_calling: string | null };

/** What the inspector says of a configured model (GET /v1/tool-calls/families?model=). */
async function resolvedFamily(started: StartedGateway, model: string): Promise<Resolved> {
  const answer = await fetch(`${started.baseUrl}/v1/tool-calls/families?model=${encodeURIComponent(model)}`);
  return ((await answer.json()) as { resolved: Resolved }).resolved;
}

async function startWith(providers: TestConfigFile['providers']): Promise<StartedGateway> {
  running.gateway = await startGateway({ providers }, { detectServers: true });
  await waitForServerDetection(running.gateway);
  return running.gateway;
}

async function askForWeather(started: StartedGateway, model: string) {
  const reply = await started.client().chat.completions.create({ model, messages, tools }).withResponse();
  const call = reply.data.choices[0]?.message.tool_calls?.[0];
  return {
    lane: reply.response.headers.get('x-tool-calling'),
    format: reply.response.headers.get('x-tool-format'),
    call: call?.type === 'function' ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown } : undefined,
  };
}

describe('vLLM started with --served-model-name', () => {
  it('prompts a Qwen3 served as my-model in Hermes syntax (its root), and reads its call back', async () => {
    // No tool parser: vLLM refuses native tools with its 400 and the request is retried in the prompted lane.
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), servedModelName: 'my-model' });
    const started = await startWith({ v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } });
    expect(await askForWeather(started, 'v/my-model')).toEqual({
      lane: 'prompted',
      format: 'hermes',
      call: { name: weatherCall.name, arguments: weatherCall.arguments },
    });
    expect(await resolvedFamily(started, 'v/my-model')).toMatchObject({
      family: 'hermes',
      family_source: 'server',
      tool_calling: 'prompted',
    });
  });

  it('reads a Qwen3 served under a hosted model name (gpt-4o, for clients that insist on one) by its root, not as generic JSON', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), servedModelName: 'gpt-4o' });
    const started = await startWith({ v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } });
    expect(await resolvedFamily(started, 'v/gpt-4o')).toMatchObject({ family: 'hermes', family_source: 'server' });
    expect(await askForWeather(started, 'v/gpt-4o')).toEqual({
      lane: 'prompted',
      format: 'hermes',
      call: { name: weatherCall.name, arguments: weatherCall.arguments },
    });
  });

  it('keeps the family the config names, whatever the root says', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), servedModelName: 'my-model' });
    const started = await startWith({
      v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1`, models: { 'my-model': { family: 'qwen3-coder' } } },
    });
    expect(await resolvedFamily(started, 'v/my-model')).toMatchObject({ family: 'qwen3-coder', family_source: 'config' });
    expect((await askForWeather(started, 'v/my-model')).format).toBe('qwen3-coder');
  });

  it('stays as before when the root names no family either', async () => {
    // `vllm serve /models/finetune-v2 --served-model-name my-model`: the table's default, generic JSON.
    running.server = await startFakeVllmServer({
      model: { ...scriptedModel('hermes'), id: '/models/finetune-v2' },
      servedModelName: 'my-model',
    });
    const started = await startWith({ v: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } });
    expect(await resolvedFamily(started, 'v/my-model')).toMatchObject({ family: 'generic-json', family_source: 'config' });
    expect(await askForWeather(started, 'v/my-model')).toMatchObject({ lane: 'prompted', format: 'generic-json' });
  });
});

describe('llama-server started with --alias', () => {
  it('prompts the GGUF behind the alias in its family’s syntax (model_path), and reads its call back', async () => {
    running.server = await startFakeLlamaServer({ model: scriptedModel('hermes'), alias: 'my-model' });
    const started = await startWith({ l: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1`, toolCalling: 'prompted' } });
    expect(await askForWeather(started, 'l/my-model')).toEqual({
      lane: 'prompted',
      format: 'hermes',
      call: { name: weatherCall.name, arguments: weatherCall.arguments },
    });
    expect(await resolvedFamily(started, 'l/my-model')).toMatchObject({ family: 'hermes', family_source: 'server' });
  });
});

describe('an Ollama model made with ollama create', () => {
  it('takes its family from /api/show’s GGUF names', async () => {
    // FROM qwen3:8b, without the tools capability in its Modelfile's template: prompted under auto.
    const model = { ...scriptedModel('hermes'), ollamaName: 'my-model:latest', ollamaCapabilities: ['completion'] };
    running.server = await startFakeOllamaServer({ models: [model] });
    const started = await startWith({ o: { type: 'ollama', baseUrl: running.server.url } });
    // An `ollama` provider's server is configured, so /ready is not pending: wait for the models read at start.
    for (let attempt = 0; attempt < 100 && (await resolvedFamily(started, 'o/my-model')).family_source !== 'server'; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await askForWeather(started, 'o/my-model')).toEqual({
      lane: 'prompted',
      format: 'hermes',
      call: { name: weatherCall.name, arguments: weatherCall.arguments },
    });
  });
});
