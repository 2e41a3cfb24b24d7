/** Shared set-up for the retry and fallback tests: fake upstreams and gateways closed after each test, metrics, a closed port. */
import { createServer } from 'node:net';
import { afterEach } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { metricSamples } from '../../helpers/metric-samples.js';
import { postJson } from '../../helpers/read-sse.js';
import { startGateway, type StartedGateway, type TestConfigFile } from '../../helpers/start-gateway.js';

export const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function fakeUpstream(): Promise<FakeOpenAiUpstream> {
  const upstream = await startFakeOpenAiUpstream();
  cleanups.push(() => upstream.close());
  return upstream;
}

export async function gatewayFor(file: TestConfigFile): Promise<StartedGateway> {
  const gateway = await startGateway(file);
  cleanups.push(() => gateway.close());
  return gateway;
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Fast retries: these tests count attempts, never time them. */
export const quickRetries = { count: 2, initialDelayMs: 1, maxDelayMs: 50 };

export async function scrape(gateway: StartedGateway, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  return metricSamples(await (await fetch(`${gateway.baseUrl}/metrics`, { headers })).text());
}

export function chat(gateway: StartedGateway, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return postJson(`${gateway.baseUrl}/v1/chat/completions`, { messages: [{ role: 'user', content: 'hi' }], ...body }, headers);
}
