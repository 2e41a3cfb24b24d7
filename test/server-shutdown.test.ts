/**
 * Graceful shutdown of the real process: SIGTERM with streams still live after the grace period exits 0,
 * each stream ended by its API's own error frame; a stalled request body does not hold the close; and
 * `npm start` stopped by npm's own pid stops the server too.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './helpers/fake-openai-upstream.js';
import { exitCode, freePort, GatewayProcesses, logMessages, waitForHealth } from './helpers/gateway-process.js';
import { sleep } from './helpers/loopback-server.js';
import { sseFrames } from './helpers/read-sse.js';
import { anthropicEvents } from './routes/messages/messages-test-kit.js';

let directory: string;
let upstream: FakeOpenAiUpstream;
const processes = new GatewayProcesses();

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlingua-shutdown-'));
  upstream = await startFakeOpenAiUpstream();
});

afterAll(async () => {
  processes.killAll();
  await upstream?.close();
  await rm(directory, { recursive: true, force: true });
});

async function writeConfig(name: string, server: Record<string, unknown>): Promise<string> {
  const path = join(directory, name);
  const provider = { type: 'openai-compatible', baseUrl: `${upstream.url}/v1`, toolCalling: 'native' };
  await writeFile(path, JSON.stringify({ server, providers: { local: provider } }));
  return path;
}

/** A stream the fake upstream starts and then holds open, silent, until the gateway goes away. */
function heldReply() {
  return { type: 'chat' as const, content: 'never finishing', holdAfterChunks: 3 };
}

type OpenStream = { text: Promise<string> };

/** Posts a streaming request and resolves once its first body bytes arrived; `text` is the whole body. */
async function openStream(port: number, path: string, body: Record<string, unknown>): Promise<OpenStream> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const first = await reader.read();
  text += decoder.decode(first.value);
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { text: rest };
}

const conversation = { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] };

describe('SIGTERM with live streams', () => {
  it('exits 0 after the default grace period, every stream ended by its own API error frame', { timeout: 120_000 }, async () => {
    // No shutdownGraceMs: the production default (10 s), which together with the abort's settling time
    // outlasted fastify's 10 s close-hook timeout and made the process exit 1.
    const configPath = await writeConfig('default-grace.json', {});
    const port = await freePort();
    const started = processes.start(['--config', configPath, '--port', String(port)]);
    await waitForHealth(started, port);
    upstream.enqueue(heldReply(), heldReply(), heldReply());
    const chat = await openStream(port, '/v1/chat/completions', conversation);
    const responses = await openStream(port, '/v1/responses', { model: 'local/m', input: 'hi' });
    const messages = await openStream(port, '/v1/messages', { ...conversation, max_tokens: 20 });

    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
    expect(logMessages(started.output())).toContain('SIGTERM: closing');

    const chatFrames = sseFrames(await chat.text);
    expect(chatFrames).not.toContain('[DONE]');
    expect(JSON.parse(chatFrames.at(-1) as string)).toMatchObject({ error: { code: 'server_shutting_down' } });

    const responsesEvents = sseFrames((await responses.text).replace(/^event: .*\n/gm, '')).map(
      (frame) => JSON.parse(frame) as Record<string, unknown>,
    );
    expect(responsesEvents.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error', message: 'The gateway is shutting down.' } },
    });

    const messageEvents = anthropicEvents(await messages.text);
    expect(messageEvents.at(-1)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(messageEvents.map((event) => event.type)).not.toContain('message_stop');
  });

  it('exits 0 with a short configured grace while a client is stalled mid-body, closing its socket too', { timeout: 90_000 }, async () => {
    // The request timeout (30 s by default) alone would hold server.close() for that long.
    const configPath = await writeConfig('short-grace.json', { shutdownGraceMs: 200 });
    const port = await freePort();
    const started = processes.start(['--config', configPath, '--port', String(port)]);
    await waitForHealth(started, port);
    upstream.enqueue(heldReply());
    const chat = await openStream(port, '/v1/chat/completions', conversation);
    const stalled = net.connect(port, '127.0.0.1');
    stalled.on('error', () => undefined);
    stalled.write(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"model":',
    );
    const stalledClosed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    await sleep(100);

    started.child.kill('SIGTERM');
    expect(await exitCode(started.child)).toBe(0);
    await stalledClosed;
    expect(JSON.parse(sseFrames(await chat.text).at(-1) as string)).toMatchObject({ error: { code: 'server_shutting_down' } });
  });
});

describe('npm start', () => {
  it(
    'stops the server when npm itself gets SIGTERM (the script execs node instead of leaving it under a shell)',
    { timeout: 90_000 },
    async () => {
      const configPath = await writeConfig('npm-start.json', {});
      const port = await freePort();
      // Detached: npm leads its own process group, so that afterAll can clean up whatever it left behind.
      const started = processes.start(['start', '--', '--config', configPath, '--port', String(port)], {}, { file: 'npm', detached: true });
      await waitForHealth(started, port);
      started.child.kill('SIGTERM');
      expect(await exitCode(started.child)).toBe(0);
      // npm has exited; the server must have too (before the fix, sh died and node kept listening).
      const deadline = Date.now() + 10_000;
      let listening = true;
      while (listening && Date.now() < deadline) {
        listening = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).then(
          () => true,
          () => false,
        );
        if (listening) await sleep(100);
      }
      expect(listening).toBe(false);
      expect(logMessages(started.output())).toContain('SIGTERM: closing');
    },
  );
});
