/**
 * POST /v1/embeddings is bounded and drained as a non-streamed chat is: `server.wholeReplyTimeoutMs` ends a
 * hung upstream with a 504 in OpenAI's envelope, and a graceful close waits for a request in flight.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close().catch(() => undefined)));
});

async function setup(
  server: Record<string, unknown>,
  shutdownGraceMs?: number,
): Promise<{ upstream: FakeOpenAiUpstream; gateway: StartedGateway }> {
  const upstream = await startFakeOpenAiUpstream();
  const gateway = await startGateway(
    { server, providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { retries: { count: 0 } }) } },
    shutdownGraceMs === undefined ? {} : { shutdownGraceMs },
  );
  // The gateway first: its close waits for nothing the upstream still holds.
  opened.push(gateway, upstream);
  return { upstream, gateway };
}

function embed(gateway: StartedGateway): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'local/bge-m3', input: 'hello' }),
  });
}

describe('embeddings: the bounds of a non-streamed request', () => {
  it("an upstream that keeps quiet past server.wholeReplyTimeoutMs: 504 upstream_timeout in OpenAI's envelope, the upstream request aborted", async () => {
    const { upstream, gateway } = await setup({ wholeReplyTimeoutMs: 300 });
    // Headers in 5 s, well inside the provider's own 10 s headers timeout: only the whole-reply bound can end it sooner.
    upstream.enqueueEmbeddings({ type: 'embeddings', headersDelayMs: 5_000 });
    const started = performance.now();
    const response = await embed(gateway);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(response.status).toBe(504);
    const body = (await response.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: 'timeout_error', code: 'upstream_timeout' });
    expect(body.error.message).toContain('server.wholeReplyTimeoutMs');
    expect(body.error.message).not.toContain('stream the reply');
    await upstream.waitForAbort(upstream.embeddingRequests()[0]!);
  });

  it('a graceful close waits for a request in flight, which completes', async () => {
    const { upstream, gateway } = await setup({}, 10_000);
    // Longer than a close gives connections it does not know are busy (lingeringConnectionsMs: 1 s).
    upstream.enqueueEmbeddings({ type: 'embeddings', headersDelayMs: 2_000 });
    const pending = embed(gateway);
    await vi.waitFor(() => expect(upstream.embeddingRequests()).toHaveLength(1));
    const closed = gateway.close();
    const response = await pending;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1);
    await closed;
  });
});
