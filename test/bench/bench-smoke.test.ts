/**
 * Keeps `npm run bench` from rotting silently: the fake upstream, the bare proxy and the gateway
 * (built in-process from the bench's own config file) answer as the suite expects, and each load
 * generator, the memory probe, the profile summary and the report run on a tiny scale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareProxy } from '../../bench/bare-proxy.js';
import type { BenchFigures } from '../../bench/bench-figures.js';
import { summariseRequests, summariseStreams } from '../../bench/bench-figures.js';
import { renderBenchReport } from '../../bench/bench-report.js';
import { readBenchSettings } from '../../bench/bench-settings.js';
import { benchRequestBody } from '../../bench/bench-requests.js';
import { spawnServerProcess } from '../../bench/child-servers.js';
import { gatewayContenders, keyedContender, upstreamContender, closeContenders, type Contender } from '../../bench/contenders.js';
import { summariseCpuProfile, type CpuProfile } from '../../bench/cpu-profile-summary.js';
import { longReplyChunkCount } from '../../bench/fake-replies.js';
import { startFakeUpstream } from '../../bench/fake-upstream.js';
import { benchClientKey, writeGatewayConfig } from '../../bench/gateway-config.js';
import { startOtlpSink } from '../../bench/otlp-sink.js';
import { measureIdleStreamMemory } from '../../bench/idle-stream-memory.js';
import { measureRequests } from '../../bench/load-generator.js';
import { readMachineInfo } from '../../bench/machine-info.js';
import { probeContender } from '../../bench/probe-contender.js';
import type { RunningServer } from '../../bench/running-server.js';
import { measureStreams } from '../../bench/stream-load.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';

let upstream: RunningServer;
let bareProxy: RunningServer;
let gateway: FastifyInstance;
let contenders: Contender[];
const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-test-'));

beforeAll(async () => {
  upstream = await startFakeUpstream();
  bareProxy = await startBareProxy(upstream.url);
  const { config } = await loadConfig({
    path: writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, 'silent'),
    environment: {},
  });
  gateway = await buildApp(config, { logger: pino({ level: 'silent' }), shutdownGraceMs: 100 });
  const gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
  contenders = [
    upstreamContender('direct', upstream.url),
    upstreamContender('bare proxy', bareProxy.url),
    ...gatewayContenders(gatewayUrl),
  ];
});

afterAll(async () => {
  await closeContenders(contenders);
  await gateway.close();
  await bareProxy.close();
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('bench building blocks', () => {
  it('every contender answers the probe (the prompted lane may lack its parser: then it says so)', async () => {
    for (const contender of contenders) await probeContender(contender);
    for (const contender of contenders.slice(0, 3))
      expect({ name: contender.name, unavailable: contender.unavailable, note: contender.note }).toEqual({ name: contender.name });
    const prompted = contenders[3]!;
    expect(prompted.unavailable === undefined || prompted.note === undefined).toBe(true);
  });

  it('measures requests, streams and idle-stream memory through the bare proxy and the gateway', async () => {
    const [, bare, native] = contenders as [Contender, Contender, Contender];
    const requests = await measureRequests({
      dispatcher: native.pool,
      path: native.reply.path,
      body: benchRequestBody({ model: native.reply.model, stream: false, toolCount: 20 }),
      connections: 2,
      durationMs: 200,
    });
    expect(requests.errors).toBe(0);
    expect(requests.requests).toBeGreaterThan(0);
    const streams = await measureStreams({
      dispatcher: bare.pool,
      path: bare.stream.path,
      body: benchRequestBody({ model: bare.stream.model, stream: true }),
      streams: 2,
      durationMs: 200,
      chunksPerReply: longReplyChunkCount,
    });
    expect(streams.errors).toBe(0);
    expect(streams.completed).toBeGreaterThan(0);
    const memory = await measureIdleStreamMemory(
      {
        name: 'bare proxy',
        url: bareProxy.url,
        path: '/hold/v1/chat/completions',
        model: 'hold',
        rssKb: () => process.memoryUsage().rss / 1024,
      },
      [4, 8],
      20,
    );
    expect(memory.map((row) => row.streams)).toEqual([4, 8]);

    const figures: BenchFigures = {
      requests: [summariseRequests('gateway native', 2, 20, [{ ...requests, cpuMs: Number.NaN }])],
      streams: [summariseStreams('bare proxy', 2, longReplyChunkCount, [{ ...streams, cpuMs: Number.NaN }])],
      growth: [],
      cost: [
        summariseRequests('gateway native', 32, 1, [{ ...requests, cpuMs: 10 }]),
        summariseRequests('gateway native, keyed + limited + metered', 32, 1, [{ ...requests, cpuMs: 10.5 }]),
      ],
      memory,
      notes: [],
      skipped: [],
    };
    const report = renderBenchReport(readMachineInfo(), readBenchSettings({ BENCH_QUICK: '1' }), figures, {
      status: 'missing',
      markdown: '(none)',
    });
    expect(report).toContain('| gateway native');
    expect(report).toContain('## Targets (issue 5)');
    expect(report).toMatch(
      /\| keyed \+ limited \+ metered: CPU per request ÷ plain gateway native, 32 connections\s+\|\s+1\.05 × \| ≤ 1\.10 × \| pass\s+\|/,
    );
  });

  it('the cost rows’ keyed, limited, metered (and traced) gateways answer the probe with the bench key, and refuse a request without it', async () => {
    const sink = await startOtlpSink();
    const apps: FastifyInstance[] = [];
    try {
      for (const variant of [{ type: 'metered' }, { type: 'metered-traced', otlpEndpoint: sink.url }] as const) {
        const { config } = await loadConfig({
          path: writeGatewayConfig(path.join(directory, `${variant.type}.json`), upstream.url, 'silent', variant),
          environment: {},
        });
        const app = await buildApp(config, { logger: pino({ level: 'silent' }), shutdownGraceMs: 100, environment: {} });
        apps.push(app);
        expect(app.tracing === undefined).toBe(variant.type === 'metered');
        const url = await app.listen({ host: '127.0.0.1', port: 0 });
        const keyed = keyedContender('gateway native, keyed + limited + metered', url, { cpuMs: () => 0 }, benchClientKey);
        const keyless = {
          ...keyedContender('gateway native, keyed + limited + metered', url, { cpuMs: () => 0 }, 'not-the-key'),
          headers: {},
        };
        await probeContender(keyed);
        await probeContender(keyless);
        await closeContenders([keyed, keyless]);
        expect({ unavailable: keyed.unavailable, note: keyed.note }).toEqual({});
        expect(keyless.unavailable).toMatch(/^HTTP 401/);
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await sink.close();
    }
  });

  it('runs the fake upstream and the bare proxy as child processes, with their CPU time and memory readable', async () => {
    const child = await spawnServerProcess('fake-upstream');
    const proxy = await spawnServerProcess('bare-proxy', child.url);
    const contender = upstreamContender('bare proxy', proxy.url, proxy);
    try {
      await probeContender(contender);
      expect(contender.unavailable).toBeUndefined();
      expect(proxy.cpuMs()).toBeGreaterThan(0);
      expect(proxy.rssKb()).toBeGreaterThan(1000);
    } finally {
      await closeContenders([contender]);
      await proxy.stop();
      await child.stop();
    }
  });

  it('ranks CPU profile self time by function and by area, inside the window only', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)', '') },
        { id: 2, callFrame: frame('parse', 'file:///x/node_modules/undici/lib/parser.js') },
        { id: 3, callFrame: frame('write', 'node:internal/streams/writable') },
      ],
      startTime: 0,
      endTime: 100,
      samples: [2, 2, 3, 1, 2],
      timeDeltas: [10, 10, 10, 10, 60],
    };
    const summary = summariseCpuProfile(profile, { window: { startUs: 15, endUs: 45 } });
    expect(summary.busyMs).toBeCloseTo(0.02);
    expect(summary.idleMs).toBeCloseTo(0.01);
    expect(summary.areas.map((area) => area.name)).toEqual(['undici', 'node:internal/streams']);
    expect(summary.functions[0]).toMatchObject({ name: 'parse node_modules/undici/lib/parser.js:1', share: 0.5 });
  });
});
