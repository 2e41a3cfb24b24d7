/**
 * `npm run bench:state`: what shared state costs a request, side by side. One gateway process with a
 * keyed, rate-limited config (requests and tokens per minute, per key and server-wide) answers the same
 * closed loop twice, once with in-process state and once with `state.redis`; for each, the gateway's CPU
 * per request and Redis's, for Chat Completions (limits only) and Responses turns continued with
 * previous_response_id (limits, one read and one write of the stored conversation).
 *
 *   npm run bench:state -- --requests 2000 --concurrency 16
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { RedisServer, redisServerPath } from '../test/helpers/redis-server.js';
import { spawnGateway, spawnServerProcess, type ChildServer } from './child-servers.js';
import { renderMarkdownTable } from './markdown-table.js';
import { readCpuMs } from './process-stats.js';

const key = 'sk-bench-state-0123456789';
const model = 'native/gpt-4o-mini';
/** A conversation restarts after this many turns, so stored documents stay the size of a real short chat. */
const turnsPerConversation = 8;

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function writeConfig(directory: string, name: string, upstreamUrl: string, redisUrl: string | undefined): string {
  const huge = { requestsPerMinute: 100_000_000, tokensPerMinute: 1_000_000_000 };
  const config = {
    server: { host: '127.0.0.1', logLevel: 'warn', apiKeys: [{ key, name: 'bench', limits: huge }], limits: huge },
    providers: { native: { type: 'openai-compatible', baseUrl: `${upstreamUrl}/tool-call/v1`, toolCalling: 'native' } },
    ...(redisUrl ? { state: { redis: redisUrl } } : {}),
  };
  const path = join(directory, `${name}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

type Workload = 'chat' | 'responses';

async function post(pool: Pool, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** `requests` requests from `concurrency` loops; a Responses loop continues its own conversation. */
async function drive(pool: Pool, workload: Workload, requests: number, concurrency: number): Promise<void> {
  let next = 0;
  const loop = async () => {
    let previous: string | undefined;
    let turn = 0;
    while (next++ < requests) {
      if (workload === 'chat') {
        await post(pool, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
        continue;
      }
      if (turn++ % turnsPerConversation === 0) previous = undefined;
      const body: Record<string, unknown> = { model, input: 'What is the weather in Paris?' };
      if (previous) body.previous_response_id = previous;
      previous = (await post(pool, '/v1/responses', body)).id as string;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}

type Row = { state: string; workload: Workload; gatewayUs: number; redisUs: number | undefined; perSecond: number };

async function measure(
  gateway: ChildServer,
  redis: RedisServer | undefined,
  state: string,
  workload: Workload,
  requests: number,
  concurrency: number,
): Promise<Row> {
  const pool = new Pool(gateway.url, { connections: concurrency });
  try {
    await drive(pool, workload, Math.min(1000, requests), concurrency);
    const gatewayBefore = gateway.cpuMs();
    const redisBefore = redis?.pid ? readCpuMs(redis.pid) : undefined;
    const started = performance.now();
    await drive(pool, workload, requests, concurrency);
    const elapsedMs = performance.now() - started;
    const redisUs = redis?.pid && redisBefore !== undefined ? ((readCpuMs(redis.pid) - redisBefore) * 1000) / requests : undefined;
    return {
      state,
      workload,
      gatewayUs: ((gateway.cpuMs() - gatewayBefore) * 1000) / requests,
      redisUs,
      perSecond: (requests * 1000) / elapsedMs,
    };
  } finally {
    await pool.close();
  }
}

async function main(): Promise<void> {
  if (!redisServerPath) throw new Error('bench:state needs redis-server (apt-get install redis-server)');
  const requests = flag('requests', 2000);
  const concurrency = flag('concurrency', 16);
  const directory = mkdtempSync(join(tmpdir(), 'interlingua-state-cost-'));
  const upstream = await spawnServerProcess('fake-upstream');
  const redis = await RedisServer.start();
  const rows: Row[] = [];
  try {
    for (const state of ['in-process', 'redis']) {
      const configPath = writeConfig(directory, state, upstream.url, state === 'redis' ? redis.url : undefined);
      const gateway = await spawnGateway({ configPath, logPath: join(directory, `${state}.log`) });
      try {
        for (const workload of ['chat', 'responses'] as const) {
          process.stderr.write(`bench:state: ${state}, ${workload}\n`);
          rows.push(await measure(gateway, state === 'redis' ? redis : undefined, state, workload, requests, concurrency));
        }
      } finally {
        await gateway.stop();
      }
    }
  } finally {
    await redis.stop();
    await upstream.stop();
    rmSync(directory, { recursive: true, force: true });
  }
  const table = renderMarkdownTable(
    ['State', 'Workload', 'Gateway CPU µs/request', 'Redis CPU µs/request', 'Requests/s'],
    rows.map((row) => [
      row.state,
      row.workload,
      row.gatewayUs.toFixed(0),
      row.redisUs === undefined ? '-' : row.redisUs.toFixed(0),
      row.perSecond.toFixed(0),
    ]),
  );
  process.stdout.write(`# Shared state cost: ${requests} requests per row, ${concurrency} in flight, keyed and rate-limited\n\n${table}\n`);
}

await main();
