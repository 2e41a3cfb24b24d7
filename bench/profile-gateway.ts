/**
 * `npm run bench -- --profile`: runs the gateway under `node --cpu-prof`, once per load (native
 * non-streaming at 32 connections, 64 concurrent 500-chunk streams, the prompted lane with 200
 * tools), keeps the `.cpuprofile` files for DevTools, and prints the hotspots of the loaded window.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchRequestBody } from './bench-requests.js';
import type { BenchSettings } from './bench-settings.js';
import { spawnGateway, type ChildServer } from './child-servers.js';
import { createPool } from './contenders.js';
import { summariseCpuProfile, type CpuProfile, type ProfileSummary } from './cpu-profile-summary.js';
import { gatewayModels, writeGatewayConfig } from './gateway-config.js';
import { longReplyChunkCount } from './fake-replies.js';
import { measureRequests } from './load-generator.js';
import { formatNumber, renderMarkdownTable } from './markdown-table.js';
import type { Progress } from './progress.js';
import { measureStreams } from './stream-load.js';

/** What one profiled load did: a description, and how many units (requests or chunks) it served. */
type LoadOutcome = { description: string; units: number; unit: 'request' | 'chunk' };
type ProfiledLoad = { name: string; run(gateway: ChildServer, durationMs: number): Promise<LoadOutcome> };

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function requestLoad(name: string, model: string, toolCount: number): ProfiledLoad {
  return {
    name,
    async run(gateway, durationMs) {
      const pool = createPool(gateway.url);
      const body = benchRequestBody({ model, stream: false, toolCount });
      const result = await measureRequests({ dispatcher: pool, path: '/v1/chat/completions', body, connections: 32, durationMs });
      await pool.destroy();
      const description = `${formatNumber(result.requestsPerSecond)} req/s, ${result.errors} errors, 32 connections, ${toolCount} tool(s) per request`;
      return { description, units: result.requests, unit: 'request' };
    },
  };
}

const streamLoad: ProfiledLoad = {
  name: 'native-streaming',
  async run(gateway, durationMs) {
    const pool = createPool(gateway.url);
    const body = benchRequestBody({ model: gatewayModels.nativeStream, stream: true });
    const result = await measureStreams({
      dispatcher: pool,
      path: '/v1/chat/completions',
      body,
      streams: 64,
      durationMs,
      chunksPerReply: longReplyChunkCount,
    });
    await pool.destroy();
    return {
      description: `${formatNumber(result.chunksPerSecond)} chunks/s, ${result.errors} errors, 64 streams`,
      units: result.completed * longReplyChunkCount,
      unit: 'chunk',
    };
  },
};

/** The two loads the issue asks for, then the prompted lane with a large tool list (its growth target). */
const loads: ProfiledLoad[] = [
  requestLoad('native-non-streaming', gatewayModels.native, 1),
  streamLoad,
  requestLoad('prompted-non-streaming-200-tools', gatewayModels.prompted, 200),
];

function renderSummary(title: string, outcome: LoadOutcome, summary: ProfileSummary, file: string): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  const perUnit = (ms: number | undefined) => formatNumber(((ms ?? 0) * 1000) / Math.max(1, outcome.units), 2);
  return [
    `### ${title}`,
    `Load: ${outcome.description}. Busy ${formatNumber(summary.busyMs)} ms (${perUnit(summary.busyMs)} µs per ${outcome.unit}), idle ${formatNumber(summary.idleMs)} ms in the loaded window. Profile: \`${file}\``,
    renderMarkdownTable(
      ['Area', 'self ms', `self µs/${outcome.unit}`, 'self share', 'on stack ms', 'on stack share'],
      summary.areas.map((area) => [
        area.name,
        formatNumber(area.selfMs),
        perUnit(area.selfMs),
        percent(area.share),
        formatNumber(area.onStackMs),
        percent((area.onStackMs ?? 0) / summary.busyMs),
      ]),
    ),
    renderMarkdownTable(
      ['Function (self time)', 'ms', `µs/${outcome.unit}`, 'share'],
      summary.functions.map((hotspot) => [hotspot.name, formatNumber(hotspot.selfMs), perUnit(hotspot.selfMs), percent(hotspot.share)]),
    ),
  ].join('\n\n');
}

/** `CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile`: thread 0 is the main thread (tsx adds a loader thread). */
function mainThreadProfile(directory: string): string {
  const file = readdirSync(directory).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (!file) throw new Error(`no main-thread .cpuprofile in ${directory}`);
  return path.join(directory, file);
}

export async function profileGateway(upstreamUrl: string, settings: BenchSettings, progress: Progress): Promise<string> {
  const directory = process.env.BENCH_PROFILE_DIR ?? path.join(os.tmpdir(), `interlingua-profiles-${Date.now()}`);
  mkdirSync(directory, { recursive: true });
  const configPath = writeGatewayConfig(path.join(directory, 'gateway.json'), upstreamUrl, settings.gatewayLogLevel);
  const durationMs = settings.quick ? 3000 : 10_000;
  const sections: string[] = [`## CPU profiles of the gateway (self time, loaded window only)`];
  for (const load of loads) {
    const profileDirectory = path.join(directory, load.name);
    rmSync(profileDirectory, { recursive: true, force: true });
    progress(`profiling the gateway: ${load.name}, ${durationMs} ms`);
    const gateway = await spawnGateway({
      configPath,
      logPath: path.join(directory, `${load.name}.log`),
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`],
    });
    await load.run(gateway, Math.min(1000, durationMs / 3));
    const window = { startUs: nowUs(), endUs: 0 };
    const outcome = await load.run(gateway, durationMs);
    window.endUs = nowUs();
    // The profile is written when the process exits (server.ts exits on SIGTERM).
    await gateway.stop();
    const profilePath = mainThreadProfile(profileDirectory);
    const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
    sections.push(renderSummary(load.name, outcome, summariseCpuProfile(profile, { window, limit: 30 }), profilePath));
  }
  return sections.join('\n\n');
}
