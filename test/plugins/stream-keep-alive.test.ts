/**
 * Keep-alives on quiet streams: the sweep pings only streams that wrote nothing for the interval, and
 * the frames each API sends (`: ping` comments, Anthropic's `ping` event) pass through real clients unseen.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StreamKeepAlive, type KeepAliveTarget } from '../../src/plugins/stream-keep-alive.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { sseChunks } from '../helpers/read-sse.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { anthropicEvents } from '../routes/messages/messages-test-kit.js';

class RecordingTarget implements KeepAliveTarget {
  pings = 0;
  wrote = false;
  takeActivity(): boolean {
    const wrote = this.wrote;
    this.wrote = false;
    return wrote;
  }
  ping(): void {
    this.pings++;
  }
}

describe('StreamKeepAlive', () => {
  it('pings a stream quiet for the whole interval, never one that keeps writing', () => {
    vi.useFakeTimers();
    try {
      const keepAlive = new StreamKeepAlive(1_000);
      const quiet = new RecordingTarget();
      const busy = new RecordingTarget();
      keepAlive.watch(quiet);
      keepAlive.watch(busy);
      for (let step = 0; step < 40; step++) {
        busy.wrote = true;
        vi.advanceTimersByTime(100);
      }
      // 4 s of silence: one ping per quiet second.
      expect(quiet.pings).toBe(4);
      expect(busy.pings).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs its timer only while a stream is watched, and not at all when disabled', () => {
    vi.useFakeTimers();
    try {
      const keepAlive = new StreamKeepAlive(1_000);
      const stop = keepAlive.watch(new RecordingTarget());
      expect(vi.getTimerCount()).toBe(1);
      stop();
      expect(vi.getTimerCount()).toBe(0);
      const disabled = new StreamKeepAlive(0);
      const target = new RecordingTarget();
      disabled.watch(target);
      vi.advanceTimersByTime(10_000);
      expect(vi.getTimerCount()).toBe(0);
      expect(target.pings).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('keep-alives on live streams through the gateway', () => {
  let upstream: FakeOpenAiUpstream;
  let gateway: StartedGateway;
  const pieces = ['Hel', 'lo', ' there'];
  // Each upstream frame is followed by a silence several times the keep-alive interval.
  const quietReply = () => ({ type: 'chat' as const, content: pieces, chunkDelayMs: 400 });

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    gateway = await startGateway({
      server: { streamKeepAliveMs: 100 },
      providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  async function rawStream(path: string, body: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${gateway.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('Chat Completions: `: ping` comments between frames; the openai SDK stream carries exactly the content', async () => {
    upstream.enqueue(quietReply());
    const text = await rawStream('/v1/chat/completions', { model: 'local/m', messages: [{ role: 'user', content: 'hi' }] });
    expect(text).toContain('\n\n: ping\n\n');
    const chunks = sseChunks(text.replaceAll(': ping\n\n', ''));
    const content = chunks
      .map((chunk) => (chunk as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe('Hello there');

    upstream.enqueue(quietReply());
    const stream = await gateway
      .client()
      .chat.completions.create({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const deltas: string[] = [];
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      deltas.push(chunk.choices[0]?.delta.content ?? '');
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas.join('')).toBe('Hello there');
    expect(finish).toBe('stop');
  });

  it('Responses: `: ping` comments; the openai SDK sees only Responses events, ending completed', async () => {
    upstream.enqueue(quietReply());
    const text = await rawStream('/v1/responses', { model: 'local/m', input: 'hi' });
    expect(text).toContain('\n\n: ping\n\n');

    upstream.enqueue(quietReply());
    const stream = await gateway.client().responses.create({ model: 'local/m', input: 'hi', stream: true });
    const types: string[] = [];
    let output = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') output += event.delta;
    }
    expect(output).toBe('Hello there');
    expect(types.at(-1)).toBe('response.completed');
  });

  it('Messages: Anthropic `ping` events, well-formed, around the unchanged event sequence', async () => {
    upstream.enqueue(quietReply());
    const text = await rawStream('/v1/messages', { model: 'local/m', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect(text).toContain('\n\nevent: ping\ndata: {"type": "ping"}\n\n');
    const events = anthropicEvents(text);
    expect(events.filter((event) => event.type === 'ping').length).toBeGreaterThan(0);
    const withoutPings = events.filter((event) => event.type !== 'ping');
    const output = withoutPings
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { text?: string }).text ?? '')
      .join('');
    expect(output).toBe('Hello there');
    expect(withoutPings[0]?.type).toBe('message_start');
    expect(withoutPings.at(-1)?.type).toBe('message_stop');
  });
});
