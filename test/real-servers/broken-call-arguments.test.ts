/**
 * A history whose earlier call has arguments that are not JSON (a call cut off at the token limit, a parser
 * that let broken JSON through) sent back to servers that parse every earlier call's arguments for the chat
 * template: vLLM answers 400 and llama-server 500 for the whole request. The gateway sends such arguments
 * as an object holding their text, so the turn is served and the model still sees what it wrote.
 */
import { describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { weatherTools } from './weather-request.js';

const cutOff = '{"city": "Par';
const tools = weatherTools;
const messages = [
  { role: 'user' as const, content: 'What is the weather in Paris?' },
  {
    role: 'assistant' as const,
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: cutOff } }],
  },
  { role: 'tool' as const, tool_call_id: 'call_1', content: 'Error: the arguments were not JSON' },
  { role: 'user' as const, content: 'Try again.' },
];

const running = closedAfterEach();

/** Every earlier call's arguments the server was sent, on whichever of its routes. */
function sentArguments(started: FakeInferenceServer): string[] {
  return ['/v1/chat/completions', '/apply-template'].flatMap((path) =>
    started
      .bodiesOf(path)
      .flatMap((body) =>
        ((body.messages ?? []) as { tool_calls?: { function: { arguments: string } }[] }[]).flatMap((message) =>
          (message.tool_calls ?? []).map((call) => call.function.arguments),
        ),
      ),
  );
}

async function askAgain(started: FakeInferenceServer, model: string): Promise<void> {
  running.gateway = await startGateway(
    { providers: { s: { type: 'openai-compatible', baseUrl: `${started.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  const reply = await running.gateway.client().chat.completions.create({ model: `s/${model}`, messages, tools });
  expect(reply.choices[0]?.message).toBeDefined();
  const sent = sentArguments(started);
  expect(sent.length).toBeGreaterThan(0);
  for (const text of sent) expect(JSON.parse(text)).toEqual({ arguments: cutOff });
}

describe('an earlier call whose arguments are not JSON', () => {
  it('reaches vLLM with its tool parser (the native lane) as an object holding the text', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes'), toolCallParser: true });
    await askAgain(running.server, scriptedModel('hermes').id);
  });

  it('reaches vLLM without a tool parser (the template renders the prompted history) as an object holding the text', async () => {
    running.server = await startFakeVllmServer({ model: scriptedModel('hermes') });
    await askAgain(running.server, scriptedModel('hermes').id);
  });

  it('reaches llama-server, which answers 500 for it otherwise, as an object holding the text', async () => {
    running.server = await startFakeLlamaServer({ model: scriptedModel('hermes') });
    await askAgain(running.server, 'any-name');
  });
});
