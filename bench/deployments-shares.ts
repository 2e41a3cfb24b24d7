/**
 * How each deployment strategy spreads requests: three loopback upstreams answering after 5, 20 and 60 ms
 * and one that refuses connections, behind one name; 1,000 requests per strategy, 8 at a time. Prints each
 * target's share and the mean latency through the gateway beside the same requests sent straight to the
 * fastest upstream (what balancing and its failures add).
 *
 * With redis-server installed it then runs two gateway replicas on one Redis (state.redis), the requests
 * alternating between them, to show that the shares hold when the replicas share their health.
 *
 *   node --import tsx bench/deployments-shares.ts [--requests N]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../src/config/validate-config-file.js';
import { RedisServer, redisServerPath } from '../test/helpers/redis-server.js';
import { renderMarkdownTable } from './markdown-table.js';

const requestsPerStrategy = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 1_000;
const concurrency = 8;
const delaysMs = [5, 20, 60];

const reply = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** An OpenAI-compatible upstream that answers every chat request after `delayMs`. */
async function slowUpstream(delayMs: number): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(reply), delayMs));
  });
  return { url: `http://127.0.0.1:${await listen(server)}/v1`, server };
}

async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

async function drive(
  urls: readonly string[],
  model: string,
  count: number,
): Promise<{ shares: Map<string, number>; meanMs: number; failed: number }> {
  const shares = new Map<string, number>();
  let next = 0;
  let totalMs = 0;
  let failed = 0;
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
  const worker = async () => {
    while (next < count) {
      // Requests alternate between the replicas.
      const url = urls[next++ % urls.length] as string;
      const startedAt = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await response.arrayBuffer();
      totalMs += performance.now() - startedAt;
      if (response.status !== 200) failed++;
      const target = response.headers.get('x-interlingua-deployment') ?? '(direct)';
      shares.set(target, (shares.get(target) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { shares, meanMs: totalMs / count, failed };
}

async function main(): Promise<void> {
  const upstreams = await Promise.all(delaysMs.map(slowUpstream));
  const dead = await refusedUrl();
  const providers: Record<string, unknown> = {
    dead: { type: 'openai-compatible', baseUrl: dead, server: 'generic', retries: { count: 0 } },
  };
  upstreams.forEach((upstream, index) => {
    providers[`box${index + 1}`] = { type: 'openai-compatible', baseUrl: upstream.url, server: 'generic', retries: { count: 0 } };
  });
  const targets = [...upstreams.map((_, index) => ({ model: `box${index + 1}/m` })), { model: 'dead/m' }];
  const strategies = ['weighted', 'least-busy', 'latency'] as const;
  const deployments = Object.fromEntries(strategies.map((strategy) => [strategy, { strategy, targets, cooldownSeconds: 30 }]));
  const startGateway = async (state?: { redis: string; keyPrefix: string }) => {
    const file = { providers, deployments, ...(state ? { state } : {}) };
    const config = normalizeConfig(compileConfigFileValidator()(file), { host: '127.0.0.1', port: 0 });
    const app = await buildApp(config, { logger: pino({ level: 'silent' }), detectServers: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/chat/completions` };
  };
  const tableOf = async (urls: readonly string[]) => {
    const rows: string[][] = [];
    for (const strategy of strategies) {
      const result = await drive(urls, strategy, requestsPerStrategy);
      const share = (model: string) => `${(((result.shares.get(model) ?? 0) / requestsPerStrategy) * 100).toFixed(1)} %`;
      rows.push([strategy, ...targets.map((target) => share(target.model)), String(result.failed), result.meanMs.toFixed(1)]);
    }
    return renderMarkdownTable(['strategy', ...targets.map((target) => target.model), 'failed', 'mean ms'], rows);
  };

  const direct = await drive([`${upstreams[0]!.url}/chat/completions`], 'm', requestsPerStrategy);
  const single = await startGateway();
  console.log(`# Deployment strategies: ${requestsPerStrategy} requests each, ${concurrency} at a time`);
  console.log(`Upstreams answer after ${delaysMs.join(' / ')} ms; dead/m refuses connections (30 s cooldown).`);
  console.log(`Straight to the 5 ms upstream: mean ${direct.meanMs.toFixed(1)} ms per request.\n`);
  console.log(await tableOf([single.url]));
  await single.app.close();

  if (redisServerPath) {
    const redis = await RedisServer.start();
    const state = { redis: redis.url, keyPrefix: `bench-deployments-${Date.now()}:` };
    const replicas = [await startGateway(state), await startGateway(state)];
    console.log('\n## Two replicas on one Redis, requests alternating between them\n');
    console.log(await tableOf(replicas.map((replica) => replica.url)));
    for (const replica of replicas) await replica.app.close();
    await redis.stop();
  } else console.log('\n(no redis-server: the two-replica table is left out)');
  for (const upstream of upstreams) upstream.server.close();
}

await main();
