/** The shared `ollama` client must not accumulate finished streams over a long-lived process. */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient, type OllamaClient } from '../../../providers/ollama/ollama-client.js';
import { streamOllamaChat } from '../../../providers/ollama/stream-ollama-chat.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { chatRequest, collectEvents, ollamaConfig, providerContext } from './ollama-test-kit.js';

let upstream: FakeOllamaUpstream;
let agent: Agent;
let client: OllamaClient;

beforeAll(async () => {
  upstream = await startFakeOllamaUpstream();
  agent = new Agent();
  client = createOllamaClient(ollamaConfig(upstream.url), agent);
});

afterAll(async () => {
  await agent.close();
  await upstream.close();
});

function ongoingStreams(): number {
  return (client as unknown as { ongoingStreamedRequests: unknown[] }).ongoingStreamedRequests.length;
}

async function stream(signal?: AbortSignal) {
  return streamOllamaChat({ client, provider: 'local', request: chatRequest(), context: providerContext(signal) });
}

describe('OllamaClient', () => {
  it('forgets streams that completed, failed mid-way, failed at once, or were abandoned', async () => {
    await collectEvents(await stream());
    upstream.enqueue({ type: 'chat', content: 'Hello there', endAfterChunks: 2 });
    await collectEvents(await stream());
    upstream.enqueue({ type: 'chat', content: 'x', streamError: { afterChunks: 0, message: 'boom' } });
    await stream().catch(() => undefined);
    upstream.enqueue({ type: 'chat', content: 'Hello there', holdOpen: true });
    for await (const event of await stream()) if (event.type === 'text-delta') break;
    const controller = new AbortController();
    upstream.enqueue({ type: 'chat', content: 'Hello there', holdOpen: true });
    const aborted = await stream(controller.signal);
    controller.abort();
    await collectEvents(aborted);
    expect(ongoingStreams()).toBe(0);
  });
});
