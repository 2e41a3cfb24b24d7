/**
 * llama-server converts each tool's parameters into its tool-call grammar and refuses what its converter cannot
 * read, here an unanchored `pattern` ("Pattern must start with '^' and end with '$'", common/json-schema-to-grammar.cpp
 * `_visit_pattern`). The call must still come back: the same request goes to the prompted lane (the tools
 * rendered by the model's template through /apply-template with `tool_choice: "none"`, which builds no grammar),
 * the client is warned, and the model and tool set are remembered for `server.refusalMemoryMs`.
 */
import { describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { weatherQuestion } from './weather-request.js';

const running = closedAfterEach();
const model = 'llama/Qwen3-8B-Q4_K_M.gguf';
const refusalMemoryMs = 600_000;
/** The gateway's clock (its refusal memories read it). */
let now = 0;

/** A city that must hold a non-blank character: `\S` is valid JSON Schema, and unanchored for llama.cpp. */
const unanchoredTools = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string', pattern: '\\S' } }, required: ['city'] },
    },
  },
];
const anchoredTools = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string', pattern: '^\\S+$' } }, required: ['city'] },
    },
  },
];

type Warning = { code: string; message: string };
type Outcome = { lane: string | null; calls: { name: string; arguments: unknown }[]; warnings: Warning[] };

async function askWhole(client: OpenAI, tools: OpenAI.ChatCompletionTool[]): Promise<Outcome> {
  const reply = await client.chat.completions.create({ model, messages: weatherQuestion, tools }).withResponse();
  const calls = (reply.data.choices[0]?.message.tool_calls ?? []).map((call) =>
    call.type === 'function'
      ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }
      : { name: '', arguments: null },
  );
  const { diagnostics } = reply.data as unknown as { diagnostics?: { warnings?: Warning[] } };
  return { lane: reply.response.headers.get('x-tool-calling'), calls, warnings: diagnostics?.warnings ?? [] };
}

async function askStreamed(client: OpenAI, tools: OpenAI.ChatCompletionTool[]): Promise<Outcome> {
  const reply = await client.chat.completions.create({ model, messages: weatherQuestion, tools, stream: true }).withResponse();
  const started: { name: string; arguments: string }[] = [];
  let warnings: Warning[] = [];
  for await (const chunk of reply.data) {
    for (const fragment of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = (started[fragment.index] ??= { name: '', arguments: '' });
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    const { diagnostics } = chunk as unknown as { diagnostics?: { warnings?: Warning[] } };
    if (diagnostics?.warnings) warnings = diagnostics.warnings;
  }
  const calls = started.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown }));
  return { lane: reply.response.headers.get('x-tool-calling'), calls, warnings };
}

const ask = { whole: askWhole, streamed: askStreamed };

/** The chat requests that sent the tools natively: each one converted (and refused) by llama-server. */
const nativeAttempts = (server: FakeInferenceServer) =>
  server.bodiesOf('/v1/chat/completions').filter((body) => Array.isArray(body.tools) && body.tool_choice !== 'none').length;

async function start(toolCalling: 'auto' | 'native' = 'auto') {
  now = 0;
  running.server = await startFakeLlamaServer({ model: scriptedModel('hermes') });
  running.gateway = await startGateway(
    {
      server: { refusalMemoryMs },
      providers: { llama: { type: 'openai-compatible', baseUrl: `${running.server.url}/v1`, toolCalling } },
    },
    { detectServers: true, now: () => now },
  );
  await waitForServerDetection(running.gateway);
  return { server: running.server, client: running.gateway.client() };
}

const expectedCall = { name: weatherCall.name, arguments: weatherCall.arguments };

describe("llama-server refusing the tools' schemas", () => {
  it.each([
    ['whole', 'streamed'],
    ['streamed', 'whole'],
  ] as const)(
    '%s: the call comes back structured from the prompted lane, and the next request (%s) goes there at once',
    async (first, second) => {
      const { server, client } = await start();
      const refused = await ask[first](client, unanchoredTools);
      expect(refused).toMatchObject({ lane: 'prompted', calls: [expectedCall] });
      expect(refused.warnings).toContainEqual({
        code: 'unsupported-parameter',
        message: expect.stringContaining("JSON schema conversion failed:\nPattern must start with '^' and end with '$'") as string,
      });
      expect(nativeAttempts(server)).toBe(1);
      // The prompted lane: the template rendered the tools with tool_choice "none", which builds no grammar.
      expect(server.bodiesOf('/apply-template').at(-1)).toMatchObject({ tool_choice: 'none' });

      const remembered = await ask[second](client, unanchoredTools);
      expect(remembered).toMatchObject({ lane: 'prompted', calls: [expectedCall] });
      expect(remembered.warnings).toContainEqual({
        code: 'unsupported-parameter',
        message: expect.stringContaining("refused these tools' schemas for this model") as string,
      });
      expect(nativeAttempts(server)).toBe(1);
    },
  );

  it('is remembered for this tool set only, and forgotten after server.refusalMemoryMs', async () => {
    const { server, client } = await start();
    expect(await askWhole(client, unanchoredTools)).toMatchObject({ lane: 'prompted', calls: [expectedCall] });
    // Another tool set for the same model is still sent natively (and converted).
    expect(await askWhole(client, anchoredTools)).toMatchObject({ lane: 'native', calls: [expectedCall], warnings: [] });
    expect(nativeAttempts(server)).toBe(2);

    now = refusalMemoryMs - 1;
    expect(await askWhole(client, unanchoredTools)).toMatchObject({ lane: 'prompted' });
    expect(nativeAttempts(server)).toBe(2);

    now = refusalMemoryMs;
    const askedAgain = await askStreamed(client, unanchoredTools);
    expect(askedAgain).toMatchObject({ lane: 'prompted', calls: [expectedCall] });
    expect(askedAgain.warnings).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('JSON schema conversion failed') as string }),
    );
    expect(nativeAttempts(server)).toBe(3);
  });

  it('under an explicit toolCalling: native, the refusal reaches the client as the 400 it is', async () => {
    const { server, client } = await start('native');
    const refused = await client.chat.completions
      .create({ model, messages: weatherQuestion, tools: unanchoredTools })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('Pattern must start with') as string });
    expect(nativeAttempts(server)).toBe(1);
    expect(server.bodiesOf('/apply-template')).toHaveLength(0);
  });
});
