/**
 * Parallel tool calls through llama-server, whose `parallel_tool_calls` defaults to false where OpenAI's
 * defaults to true (tools/server/server-common.cpp, `oaicompat_chat_params_parse`): a client that leaves
 * it unset must still get every call the model makes.
 */
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { weatherTools } from './weather-request.js';

const running = closedAfterEach();

const twoCities = [
  { name: 'get_weather', arguments: { city: 'Paris' } },
  { name: 'get_weather', arguments: { city: 'Rome' } },
];

async function askBothCities(parallelToolCalls: boolean | undefined, stream: boolean) {
  running.server = await startFakeLlamaServer({ model: scriptedModel('hermes'), calls: twoCities });
  running.gateway = await startGateway(
    { providers: { l: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  const request = {
    model: 'l/Qwen3-8B-Q4_K_M.gguf',
    messages: [{ role: 'user' as const, content: 'The weather in Paris and in Rome?' }],
    tools: weatherTools,
    ...(parallelToolCalls === undefined ? {} : { parallel_tool_calls: parallelToolCalls }),
  };
  const client = running.gateway.client();
  const cities: unknown[] = [];
  if (stream) {
    const argumentsByIndex: string[] = [];
    for await (const chunk of await client.chat.completions.create({ ...request, stream: true }))
      for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
        argumentsByIndex[call.index] = (argumentsByIndex[call.index] ?? '') + (call.function?.arguments ?? '');
    cities.push(...argumentsByIndex.map((text) => (JSON.parse(text) as { city: string }).city));
  } else {
    const reply = await client.chat.completions.create(request);
    for (const call of reply.choices[0]?.message.tool_calls ?? [])
      if (call.type === 'function') cities.push((JSON.parse(call.function.arguments) as { city: string }).city);
  }
  return { cities, sent: running.server.bodiesOf('/v1/chat/completions')[0]?.parallel_tool_calls };
}

describe('parallel tool calls through llama-server', () => {
  for (const stream of [false, true]) {
    const how = stream ? 'streamed' : 'whole';

    it(`returns every call when the client leaves parallel_tool_calls unset (${how})`, async () => {
      expect(await askBothCities(undefined, stream)).toEqual({ cities: ['Paris', 'Rome'], sent: true });
    });

    it(`keeps the client's parallel_tool_calls: false, one call (${how})`, async () => {
      expect(await askBothCities(false, stream)).toEqual({ cities: ['Paris'], sent: false });
    });
  }
});
