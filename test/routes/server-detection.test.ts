/**
 * The server behind a provider, end to end through the real `openai` client: found in the background,
 * said in /ready and /v1/models, choosing `toolCalling: auto`'s lane per model; a vLLM that refuses
 * tools (no --tool-call-parser) gets the same request prompted before the client sees anything.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, LoopbackServer } from '../helpers/loopback-server.js';
import { sleep, startLoopbackServer } from '../helpers/loopback-server.js';
import { startProbeFake, writeChatReply, writeVllmAutoToolChoiceRefusal } from '../helpers/server-probe-fakes.js';
import { startGateway, testProvider, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';

const running = closedAfterEach<LoopbackServer>();

const tools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];
const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
/** What a Qwen3 model writes for a call when the tools are in its prompt (Hermes tags). */
const hermesCall = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

type ModelsBody = { data: { id: string; server?: string; tool_calling: string }[] };

async function readJson<Body>(path: string): Promise<Body> {
  return (await (await fetch(`${running.gateway?.baseUrl}${path}`)).json()) as Body;
}

/** A vLLM started without --enable-auto-tool-choice: tools get its 400; a prompt gets the model's Hermes text. */
function vllmWithoutToolParser(request: RecordedRequest, response: Parameters<typeof writeChatReply>[1]) {
  // vLLM refuses tools only when asked to choose among them (`auto`); `none` it renders through the template.
  const body = request.body as { tools?: unknown; tool_choice?: unknown };
  if (body.tools && body.tool_choice !== 'none') return writeVllmAutoToolChoiceRefusal(response);
  writeChatReply(request, response, { content: hermesCall });
}

const chatRequests = () => running.server?.requests.filter((request) => request.path === '/v1/chat/completions') ?? [];

describe('server detection end to end', () => {
  it('retries a request vLLM refused tools for in the prompted lane, and prompts that model from then on', async () => {
    running.server = await startProbeFake('vllm', { chat: vllmWithoutToolParser });
    running.gateway = await startGateway(
      { providers: { local: testProvider('openai-compatible', `${running.server.url}/v1`) } },
      { detectServers: true },
    );
    expect(await waitForServerDetection(running.gateway)).toEqual({ local: { server: 'vllm', version: '0.11.2', found: 'detected' } });
    // The inspector's model lookup says it too.
    const lookup = await readJson<{ resolved: object }>('/v1/tool-calls/families?model=local/Qwen/Qwen3-8B');
    expect(lookup.resolved).toMatchObject({ family: 'hermes', server: 'vllm', tool_calling: 'native' });
    const before = await readJson<ModelsBody>('/v1/models');
    expect(before.data).toEqual([expect.objectContaining({ id: 'local/Qwen/Qwen3-8B', server: 'vllm', tool_calling: 'native' })]);

    const client = running.gateway.client();
    const first = await client.chat.completions.create({ model: 'local/Qwen/Qwen3-8B', messages, tools }).withResponse();
    expect(first.response.headers.get('x-tool-calling')).toBe('prompted');
    expect(first.data.choices[0]?.finish_reason).toBe('tool_calls');
    const call = first.data.choices[0]?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call?.type === 'function' ? call.function.arguments : '')).toEqual({ city: 'Paris' });
    // The refused request, then the same one prompted: Qwen3's own template renders the tools (sent with
    // tool_choice "none"), the gateway parses the reply, and the special tokens are kept.
    const [refused, prompted] = chatRequests().map(
      (request) => request.body as { tools?: unknown; tool_choice?: unknown; skip_special_tokens?: unknown },
    );
    expect(refused?.tools).toBeDefined();
    expect(refused?.tool_choice).toBeUndefined();
    expect(prompted).toMatchObject({ tool_choice: 'none', skip_special_tokens: false });
    expect(prompted?.tools).toBeDefined();

    // Remembered: the next request goes straight to the prompted lane, streamed too.
    const stream = await client.chat.completions.create({ model: 'local/Qwen/Qwen3-8B', messages, tools, stream: true }).withResponse();
    expect(stream.response.headers.get('x-tool-calling')).toBe('prompted');
    const names: string[] = [];
    for await (const chunk of stream.data)
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.name) names.push(call.function.name);
    expect(names).toEqual(['get_weather']);
    expect(chatRequests()).toHaveLength(3);
    const after = await readJson<ModelsBody>('/v1/models');
    expect(after.data[0]).toMatchObject({ server: 'vllm', tool_calling: 'prompted' });
  });

  it('keeps an explicit toolCalling: native, passing vLLM’s refusal on', async () => {
    running.server = await startProbeFake('vllm', { chat: vllmWithoutToolParser });
    running.gateway = await startGateway(
      { providers: { local: testProvider('openai-compatible', `${running.server.url}/v1`, { toolCalling: 'native' }) } },
      { detectServers: true },
    );
    await waitForServerDetection(running.gateway);
    const error = await running.gateway
      .client()
      .chat.completions.create({ model: 'local/Qwen/Qwen3-8B', messages, tools })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('--enable-auto-tool-choice') });
    expect(chatRequests()).toHaveLength(1);
  });

  // The prompted lane's requests to llama-server (/apply-template, /completion) are the real-servers matrix's.
  it('sends tools natively to a llama-server whose template calls tools, and prompts when it does not', async () => {
    const nativeCall = (request: RecordedRequest, response: Parameters<typeof writeChatReply>[1]) =>
      writeChatReply(request, response, { toolCall: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    for (const [templateCallsTools, lane] of [
      [true, 'native'],
      [false, 'prompted'],
    ] as const) {
      running.server = await startProbeFake('llama.cpp', { templateCallsTools, chat: nativeCall });
      running.gateway = await startGateway(
        { providers: { box: testProvider('openai-compatible', `${running.server.url}/v1`) } },
        { detectServers: true },
      );
      expect(await waitForServerDetection(running.gateway)).toEqual({
        box: { server: 'llama.cpp', version: 'b7100-1a2b3c4', found: 'detected' },
      });
      const models = await readJson<ModelsBody>('/v1/models');
      expect(models.data[0]).toMatchObject({ server: 'llama.cpp', tool_calling: lane });
      if (lane === 'native') {
        const reply = await running.gateway
          .client()
          .chat.completions.create({ model: 'box/Qwen/Qwen3-8B', messages, tools })
          .withResponse();
        expect(reply.response.headers.get('x-tool-calling')).toBe('native');
        expect((chatRequests()[0]?.body as { tools?: unknown }).tools).toBeDefined();
      }
      await running.close();
    }
  });

  it('says a configured server as configured, and gives an Ollama provider’s models their lanes by capability', async () => {
    running.server = await startProbeFake('ollama', { models: ['qwen3:8b', 'gemma3:270m'], toolModels: ['qwen3:8b'] });
    running.gateway = await startGateway(
      {
        providers: {
          home: testProvider('ollama', running.server.url),
          pinned: testProvider('openai-compatible', `${running.server.url}/v1`, { server: 'generic' }),
        },
      },
      { detectServers: true },
    );
    // Configured from the start; the version (and the models' capabilities) arrive with the probe.
    expect(await waitForServerDetection(running.gateway, (servers) => servers.home?.version !== undefined)).toEqual({
      home: { server: 'ollama', version: '0.13.1', found: 'configured' },
      pinned: { server: 'generic', found: 'configured' },
    });
    const models = await readJson<ModelsBody>('/v1/models');
    const lanes = Object.fromEntries(models.data.map((model) => [model.id, [model.server, model.tool_calling]]));
    expect(lanes['home/qwen3:8b']).toEqual(['ollama', 'native']);
    expect(lanes['home/gemma3:270m']).toEqual(['ollama', 'prompted']);
  });

  it('asks the server again after an upstream failure, and finds what answers now', async () => {
    // A generic server that is replaced by a vLLM, failing the request in between (a restart on the same port).
    const identity = { kind: 'generic' as 'generic' | 'vllm' };
    running.server = await startLoopbackServer((request, response) => {
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.path === '/version' && identity.kind === 'vllm') return json(200, { version: '0.11.2' });
      if (request.path === '/v1/models')
        return json(200, { object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: identity.kind }] });
      if (request.path === '/v1/chat/completions') return json(503, { error: { message: 'restarting' } });
      json(404, { error: { message: 'no route' } });
    });
    running.gateway = await startGateway(
      { providers: { local: testProvider('openai-compatible', `${running.server.url}/v1`) } },
      { detectServers: true, serverRedetectAfterMs: 100 },
    );
    expect(await waitForServerDetection(running.gateway)).toEqual({ local: { server: 'generic', found: 'detected' } });
    identity.kind = 'vllm';
    await sleep(150);
    const failed = await running.gateway
      .client()
      .chat.completions.create({ model: 'local/m', messages })
      .catch((caught: unknown) => caught);
    expect(failed).toMatchObject({ status: 503 });
    expect(await waitForServerDetection(running.gateway, (servers) => servers.local?.server === 'vllm')).toEqual({
      local: { server: 'vllm', version: '0.11.2', found: 'detected' },
    });
  });

  it('never delays /health: the gateway answers while a server is still being asked', async () => {
    // A server that accepts connections and never answers: detection waits out its probes' timeouts.
    const silent = await startLoopbackServer(() => new Promise(() => undefined));
    try {
      running.gateway = await startGateway(
        { providers: { slow: testProvider('openai-compatible', `${silent.url}/v1`) } },
        { detectServers: true },
      );
      const started = Date.now();
      expect((await fetch(`${running.gateway.baseUrl}/health`)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      await running.close();
    } finally {
      await silent.close();
    }
  });
});
