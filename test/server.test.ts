/**
 * The real entry point (`node --import tsx src/server.ts`): starts from a config file or the environment,
 * answers /health, exits 0 on SIGTERM, and refuses a bad config with the bad path in its message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from './helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './helpers/fake-openai-upstream.js';
import { exitCode, freePort, GatewayProcesses, logLines, logMessages, waitForHealth } from './helpers/gateway-process.js';
import { sleep } from './helpers/loopback-server.js';

let directory: string;
let openai: FakeOpenAiUpstream;
let ollama: FakeOllamaUpstream;
const processes = new GatewayProcesses();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlingua-server-'));
  [openai, ollama] = await Promise.all([startFakeOpenAiUpstream(), startFakeOllamaUpstream()]);
});

afterAll(async () => {
  // Only the children this file started, by their own pid (a failed test may leave one running).
  processes.killAll();
  await Promise.all([openai?.close(), ollama?.close()]);
  await rm(directory, { recursive: true, force: true });
});

function startServer(commandLine: string[], environment: Record<string, string> = {}) {
  return processes.start(commandLine, environment);
}

/** One chat completion for `local/m` through the started process. */
function postChat(port: number, content: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content }] }),
  });
}

// A child process on a shared, loaded machine can take longer to start than the default 20 s test timeout.
describe('src/server.ts', { timeout: 90_000 }, () => {
  it('starts from --config and --port, serves a completion, and exits 0 on SIGTERM', async () => {
    const configPath = join(directory, 'gateway.yaml');
    await writeFile(
      configPath,
      `providers:\n  local:\n    type: openai-compatible\n    baseUrl: ${openai.url}/v1\n    apiKey: \${LOCAL_TEST_KEY}\n    toolCalling: native\n`,
    );
    const port = await freePort();
    const started = startServer(['--config', configPath, '--port', String(port)], { LOCAL_TEST_KEY: 'sk-from-env' });
    expect(await waitForHealth(started, port)).toMatchObject({ status: 'ok', providers: ['local'] });

    openai.enqueue({ type: 'chat', content: 'from a real process' });
    const response = await postChat(port, 'secret prompt text');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe(
      'from a real process',
    );
    expect(openai.chatRequests().at(-1)?.headers.authorization).toBe('Bearer sk-from-env');

    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
    const output = started.output();
    expect(logMessages(output)).toContain('SIGTERM: closing');
    // One line per request, with its fields, and never the key or the prompt.
    const requestLine = logLines(output).find((line) => line.msg === 'request' && line.url === '/v1/chat/completions');
    expect(requestLine).toMatchObject({
      status: 200,
      provider: 'local',
      model: 'm',
      reqId: expect.any(String),
      durationMs: expect.any(Number),
    });
    expect(output).not.toContain('sk-from-env');
    expect(output).not.toContain('secret prompt text');
  });

  it('writes request lines while it runs (the log is written in blocks, flushed within 200 ms)', async () => {
    const configPath = join(directory, 'gateway-log.json');
    await writeFile(
      configPath,
      JSON.stringify({ providers: { local: { type: 'openai-compatible', baseUrl: `${openai.url}/v1`, toolCalling: 'native' } } }),
    );
    const port = await freePort();
    const started = startServer(['--config', configPath, '--port', String(port)]);
    await waitForHealth(started, port);
    const requestLines = () => logLines(started.output()).filter((line) => line.msg === 'request' && line.url === '/v1/chat/completions');
    openai.enqueue({ type: 'chat', content: 'logged' });
    const response = await postChat(port, 'hi');
    expect(response.status).toBe(200);
    const deadline = Date.now() + 5_000;
    while (requestLines().length === 0 && Date.now() < deadline) await sleep(50);
    expect(started.child.exitCode).toBeNull();
    expect(requestLines()).toHaveLength(1);
    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
  });

  it('reads GATEWAY_CONFIG, PORT and HOST from the environment', async () => {
    const configPath = join(directory, 'gateway.json');
    await writeFile(configPath, JSON.stringify({ providers: { home: { type: 'ollama', baseUrl: ollama.url } } }));
    const port = await freePort();
    const started = startServer([], { GATEWAY_CONFIG: configPath, PORT: String(port), HOST: '127.0.0.1' });
    expect(await waitForHealth(started, port)).toMatchObject({ providers: ['home'] });
    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
  });

  it('starts without a config file from the environment, saying what it found', async () => {
    const port = await freePort();
    const started = startServer(['--port', String(port)], { OLLAMA_HOST: ollama.url });
    expect(await waitForHealth(started, port)).toMatchObject({ providers: ['ollama'] });
    expect(logMessages(started.output())).toContain(`provider "ollama" from OLLAMA_HOST (${ollama.url})`);
    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
  });

  it("with no config and nothing found, serves the demo provider, and the README's first request gets a tool call back", async () => {
    const port = await freePort();
    const started = startServer(['--port', String(port)], {});
    expect(await waitForHealth(started, port)).toMatchObject({ providers: ['demo'] });
    expect(logMessages(started.output()).join('\n')).toContain('serving the demo provider');
    const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'demo/qwen3-8b',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Get the weather for a city.',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
      }),
    });
    const body = (await response.json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
    expect(body.choices[0]?.message.tool_calls[0]?.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
  });

  it('refuses a bad config, exiting non-zero with the bad path in the message', async () => {
    const configPath = join(directory, 'bad.yaml');
    await writeFile(configPath, 'providers:\n  local: { type: vllm, baseUrl: "http://127.0.0.1:8000/v1" }\n');
    const started = startServer(['--config', configPath, '--port', String(await freePort())]);
    expect(await exitCode(started.child)).toBe(1);
    expect(logMessages(started.output()).join('\n')).toContain(
      'providers.local.type: must be one of openai, openai-compatible, anthropic, ollama',
    );
  });

  it('says in one line that the port is in use, and exits 1 without a stack trace', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const started = startServer(['--port', String(port), '--host', '127.0.0.1']);
      expect(await exitCode(started.child)).toBe(1);
      const messages = logMessages(started.output()).join('\n');
      expect(messages).toContain(`port ${port} on 127.0.0.1 is in use: listen EADDRINUSE`);
      expect(started.output()).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses a bad command line with exit status 2 and the usage', async () => {
    const started = startServer(['--port', 'eighty']);
    expect(await exitCode(started.child)).toBe(2);
    expect(started.output()).toContain("invalid port 'eighty'");
    expect(started.output()).toContain('Usage: npm start --');
  });
});
