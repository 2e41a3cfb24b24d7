/** Graceful close: live streams may finish within the grace period; after it they are aborted, down to the upstream. */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveStreams } from '../../src/plugins/live-streams.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { sseFrames } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { providerKinds, waitForUpstreamAbort, type ProviderKind } from '../routes/chat-completions/provider-kinds.js';

describe('LiveStreams', () => {
  it('drains at once when nothing is live', async () => {
    const started = performance.now();
    await new LiveStreams().drain(5_000);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('waits for a live stream that ends within the grace period, without aborting it', async () => {
    const streams = new LiveStreams();
    const controller = new AbortController();
    const release = streams.add(controller);
    expect(streams.size).toBe(1);
    setTimeout(release, 50);
    await streams.drain(5_000);
    expect(streams.size).toBe(0);
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts what is still live when the grace period ends, then waits for it to wind down', async () => {
    const streams = new LiveStreams();
    const controller = new AbortController();
    const release = streams.add(controller);
    // A real stream writes its error frame and ends a little after the abort.
    controller.signal.addEventListener('abort', () => setTimeout(release, 50));
    const started = performance.now();
    await streams.drain(100);
    const elapsed = performance.now() - started;
    expect(controller.signal.aborted).toBe(true);
    expect(streams.size).toBe(0);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(600);
  });

  it('does not wait forever for an aborted stream that never ends', async () => {
    const streams = new LiveStreams();
    streams.add(new AbortController());
    const started = performance.now();
    await streams.drain(50);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('app.close() with a live stream', () => {
  let upstream: FakeOpenAiUpstream | undefined;
  let gateway: StartedGateway | undefined;

  afterEach(async () => {
    await gateway?.close().catch(() => undefined);
    await upstream?.close();
  });

  async function start(shutdownGraceMs: number) {
    upstream = await startFakeOpenAiUpstream();
    gateway = await startGateway(
      { providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) } },
      { shutdownGraceMs },
    );
    return { upstream, gateway };
  }

  async function openStream(baseUrl: string): Promise<{ body: Promise<string>; firstBytes: Promise<void> }> {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let markFirst: () => void = () => undefined;
    const firstBytes = new Promise<void>((resolve) => {
      markFirst = resolve;
    });
    const body = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return text;
        text += new TextDecoder().decode(value);
        if (text.includes('"content":"')) markFirst();
      }
    })();
    return { body, firstBytes };
  }

  it('lets a stream that finishes within the grace period complete, then closes', async () => {
    const { upstream: fake, gateway: app } = await start(5_000);
    fake.enqueue({ type: 'chat', content: 'slow but steady', fragmentSize: 3, chunkDelayMs: 40 });
    const stream = await openStream(app.baseUrl);
    await stream.firstBytes;
    const started = performance.now();
    await app.close();
    const elapsed = performance.now() - started;
    const frames = sseFrames(await stream.body);
    expect(frames.at(-1)).toBe('[DONE]');
    const content = frames
      .slice(0, -1)
      .map((frame) => (JSON.parse(frame) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe('slow but steady');
    expect(elapsed).toBeLessThan(4_000);
  });

  it('aborts a stream still live when the grace period ends, and the upstream sees the abort', async () => {
    const { upstream: fake, gateway: app } = await start(300);
    fake.enqueue({ type: 'chat', content: 'never finishing', holdAfterChunks: 3 });
    const stream = await openStream(app.baseUrl);
    await stream.firstBytes;
    const started = performance.now();
    await app.close();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    const upstreamRequest = fake.chatRequests().at(-1);
    if (!upstreamRequest) throw new Error('no upstream request');
    await fake.waitForAbort(upstreamRequest);
    // The client's stream ends: no hanging connection after close.
    const text = await stream.body;
    expect(text).not.toContain('[DONE]');
    expect(text).not.toContain('finish_reason":"stop"');
  });
});

describe.each(providerKinds())('app.close() aborting a live stream from $type', (kind) => {
  let gateway: StartedGateway | undefined;

  afterEach(async () => {
    await gateway?.close().catch(() => undefined);
    await kind.close();
  });

  it('ends the client stream with an in-band error, never a finish that passes for complete', async () => {
    await kind.start();
    gateway = await startGateway({ providers: { [kind.name]: kind.providerEntry() } }, { shutdownGraceMs: 200 });
    kind.scriptHeldStream();
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `${kind.name}/${kind.model}`,
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 20,
        stream: true,
      }),
    });
    const text = response.text();
    await waitForUpstreamRequest(kind);
    const started = performance.now();
    await gateway.close();
    // Not held open by the client's idle keep-alive connection once its stream ended.
    expect(performance.now() - started).toBeLessThan(1_500);
    await waitForUpstreamAbort(kind);
    const frames = sseFrames(await text);
    expect(frames).not.toContain('[DONE]');
    const last = JSON.parse(frames.at(-1) as string) as Record<string, unknown>;
    expect(last).toHaveProperty('error');
  });
});

async function waitForUpstreamRequest(kind: ProviderKind): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (kind.chatRequests().length === 0) {
    if (Date.now() > deadline) throw new Error(`${kind.type}: no upstream request`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
