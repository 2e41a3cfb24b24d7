/**
 * `npm run soak`: N concurrent streaming requests through the real gateway process against an upstream
 * that injects faults (a seeded mix, mostly healthy), each stream checked; prints throughput, outcomes,
 * violations and the gateway's peak memory, and exits 1 on any violation. Loopback only, bounded in
 * count (`--requests`) and time (`--max-seconds`).
 *
 *   npm run soak -- --streams 1000 --requests 3000 --seed 1     (or SOAK_STREAMS, SOAK_REQUESTS, SOAK_SEED)
 *   npm run soak -- --replicas 2    (SOAK_REPLICAS) two gateway processes sharing one Redis (state.redis,
 *                                   server-wide limits counted there), requests dealt to them in turn
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { RedisServer } from '../../test/helpers/redis-server.js';
import { spawnGateway, spawnServerProcess, type ChildServer } from '../child-servers.js';
import { readPeakRssKb, readRssKb } from '../process-stats.js';
import { checkStream } from './check-stream.js';
import { requestMarker, scenarioFor, type FaultKind, type Outcome } from './soak-scenarios.js';

type SoakSettings = { streams: number; requests: number; seed: number; maxSeconds: number; replicas: number };

function setting(name: string, environmentName: string, fallback: number): number {
  const flag = process.argv.indexOf(`--${name}`);
  const text = flag >= 0 ? process.argv[flag + 1] : process.env[environmentName];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} (${environmentName}) must be a whole number, got '${text}'`);
  return value;
}

function readSettings(): SoakSettings {
  const streams = Math.max(1, setting('streams', 'SOAK_STREAMS', 1000));
  const replicas = Math.max(1, setting('replicas', 'SOAK_REPLICAS', 1));
  return {
    streams,
    requests: Math.max(streams, setting('requests', 'SOAK_REQUESTS', streams * 3)),
    seed: setting('seed', 'SOAK_SEED', 1),
    maxSeconds: setting('max-seconds', 'SOAK_MAX_SECONDS', 300),
    replicas,
  };
}

const tools = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Looks a query up.',
      parameters: { type: 'object', properties: { query: { type: 'string' }, index: { type: 'integer' } }, required: ['query'] },
    },
  },
];

/**
 * What the gateway needs for the soak: the fault upstream, a body timeout short enough to end stalls soon.
 * With a Redis, server-wide limits far above the load, so that every request is counted there and none refused.
 */
function writeConfig(directory: string, upstreamUrl: string, redisUrl?: string): string {
  const path = join(directory, 'soak-gateway.json');
  const provider = {
    type: 'openai-compatible',
    baseUrl: `${upstreamUrl}/v1`,
    toolCalling: 'native',
    timeouts: { connectMs: 5_000, headersMs: 30_000, bodyMs: 2_000 },
  };
  const shared = redisUrl
    ? { limits: { requestsPerMinute: 100_000_000, tokensPerMinute: 1_000_000_000, concurrentStreams: 1_000_000 } }
    : {};
  const config = {
    server: { host: '127.0.0.1', logLevel: 'warn', ...shared },
    providers: { soak: provider },
    ...(redisUrl ? { state: { redis: redisUrl } } : {}),
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

type Tally = { outcomes: Map<FaultKind, Map<Outcome | 'violation', number>>; violations: Map<string, number>; finished: number };

function count(tally: Tally, kind: FaultKind, outcome: Outcome | 'violation'): void {
  const byOutcome = tally.outcomes.get(kind) ?? new Map<Outcome | 'violation', number>();
  byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  tally.outcomes.set(kind, byOutcome);
}

function violation(tally: Tally, kind: FaultKind, message: string): void {
  count(tally, kind, 'violation');
  const key = `${kind}: ${message}`;
  tally.violations.set(key, (tally.violations.get(key) ?? 0) + 1);
}

async function soakOne(pools: Pool[], settings: SoakSettings, index: number, deadline: number, tally: Tally): Promise<void> {
  const scenario = scenarioFor(settings.seed, index);
  const body = JSON.stringify({ model: 'soak/m', stream: true, tools, messages: [{ role: 'user', content: requestMarker(index) }] });
  const sent = Date.now();
  let stage = 'before the response headers';
  try {
    const response = await pools[index % pools.length]!.request({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
      signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    });
    stage = `after HTTP ${response.statusCode} (${String(response.headers['x-request-id'])})`;
    const text = await response.body.text();
    const verdict = checkStream(scenario, response.statusCode, text);
    if (verdict.violation !== undefined)
      violation(tally, scenario.kind, `${verdict.violation} (HTTP ${response.statusCode}: ${text.slice(0, 160)})`);
    else count(tally, scenario.kind, verdict.outcome);
  } catch (error) {
    const name = (error as Error).name;
    violation(
      tally,
      scenario.kind,
      name === 'TimeoutError' || name === 'AbortError'
        ? `no end before the soak's time bound (${settings.maxSeconds} s)`
        : `client error ${stage}, ${Math.round((Date.now() - sent) / 1000)} s in: ${(error as Error).message}`,
    );
  }
  tally.finished++;
}

function report(
  settings: SoakSettings,
  tally: Tally,
  elapsedMs: number,
  gateways: { peakRssKb: number; sampledPeakRssKb: number; cpuMs: number }[],
): string {
  const outcomes: (Outcome | 'violation')[] = ['complete', 'error-frame', 'http-error', 'violation'];
  const through = settings.replicas > 1 ? `, through ${settings.replicas} replicas sharing Redis` : '';
  const lines = [
    `# Soak: ${settings.requests} streaming requests, ${settings.streams} concurrent, seed ${settings.seed}${through}`,
    '',
    `- elapsed ${(elapsedMs / 1000).toFixed(1)} s · ${((tally.finished * 1000) / elapsedMs).toFixed(0)} requests/s`,
    ...gateways.map(
      (gateway, index) =>
        `- gateway ${index + 1}: peak RSS ${(gateway.peakRssKb / 1024).toFixed(1)} MiB (VmHWM) · highest sampled VmRSS ${(gateway.sampledPeakRssKb / 1024).toFixed(1)} MiB · CPU ${(gateway.cpuMs / 1000).toFixed(1)} s`,
    ),
    '',
    `| scenario | ${outcomes.join(' | ')} |`,
    `|---|${outcomes.map(() => '---:').join('|')}|`,
  ];
  for (const [kind, byOutcome] of [...tally.outcomes].sort(([left], [right]) => left.localeCompare(right))) {
    lines.push(`| ${kind} | ${outcomes.map((outcome) => byOutcome.get(outcome) ?? 0).join(' | ')} |`);
  }
  const total = [...tally.violations.values()].reduce((sum, value) => sum + value, 0);
  lines.push('', total === 0 ? 'violations: none' : `violations: ${total}`);
  for (const [message, times] of [...tally.violations].slice(0, 30)) lines.push(`- ${times}× ${message}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const settings = readSettings();
  const directory = mkdtempSync(join(tmpdir(), 'interlingua-soak-'));
  const children: ChildServer[] = [];
  let redis: RedisServer | undefined;
  const logPath = join(directory, 'gateway.log');
  try {
    const upstream = await spawnServerProcess('fault-upstream', String(settings.seed));
    children.push(upstream);
    if (settings.replicas > 1) {
      redis = await RedisServer.start();
      process.stderr.write(`soak: redis on ${redis.url}\n`);
    }
    const configPath = writeConfig(directory, upstream.url, redis?.url);
    const gateways: ChildServer[] = [];
    for (let replica = 0; replica < settings.replicas; replica++) {
      const gateway = await spawnGateway({ configPath, logPath });
      children.push(gateway);
      gateways.push(gateway);
      process.stderr.write(`soak: gateway pid ${gateway.pid} on ${gateway.url}, log ${logPath}\n`);
    }

    const pools = gateways.map(
      (gateway) => new Pool(gateway.url, { connections: Math.ceil(settings.streams / gateways.length), pipelining: 1 }),
    );
    const tally: Tally = { outcomes: new Map(), violations: new Map(), finished: 0 };
    const sampledPeakRssKb = gateways.map(() => 0);
    const sampleRss = () =>
      gateways.forEach((gateway, index) => (sampledPeakRssKb[index] = Math.max(sampledPeakRssKb[index]!, readRssKb(gateway.pid))));
    const cpuBefore = gateways.map((gateway) => gateway.cpuMs());
    const sampler = setInterval(sampleRss, 250);
    const progress = setInterval(() => process.stderr.write(`soak: ${tally.finished}/${settings.requests}\n`), 5_000);
    const started = performance.now();
    const deadline = Date.now() + settings.maxSeconds * 1000;
    let next = 0;
    const worker = async () => {
      while (next < settings.requests) await soakOne(pools, settings, next++, deadline, tally);
    };
    await Promise.all(Array.from({ length: settings.streams }, worker));
    const elapsedMs = performance.now() - started;
    clearInterval(sampler);
    clearInterval(progress);
    sampleRss();
    const figures = gateways.map((gateway, index) => ({
      peakRssKb: readPeakRssKb(gateway.pid),
      sampledPeakRssKb: sampledPeakRssKb[index]!,
      cpuMs: gateway.cpuMs() - cpuBefore[index]!,
    }));
    await Promise.all(pools.map((pool) => pool.close()));
    process.stdout.write(`${report(settings, tally, elapsedMs, figures)}\n`);
    if (tally.violations.size > 0) {
      process.exitCode = 1;
      process.stderr.write(`soak: the gateway's log is kept in ${logPath}\n`);
    }
  } finally {
    for (const child of children.reverse()) await child.stop();
    await redis?.stop();
    if (process.exitCode !== 1) rmSync(directory, { recursive: true, force: true });
  }
}

await main();
