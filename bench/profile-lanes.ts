/**
 * `npm run bench -- --profile --lanes [--against DIR]`: each checkout's gateway under load in each lane
 * (non-streaming, 32 connections, one tool), twice: once under `--cpu-prof` (self time per request) and
 * once under the sampling heap profiler (bytes allocated per request), each in a fresh process, so that
 * the two profilers do not weigh on each other. The checkouts alternate lane by lane.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseAllocationProfile, type AllocationProfile } from './allocation-profile-summary.js';
import { benchRequestBody } from './bench-requests.js';
import type { BenchSettings } from './bench-settings.js';
import { spawnGateway, type ChildServer } from './child-servers.js';
import { createPool } from './contenders.js';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile-summary.js';
import { gatewayModels, writeGatewayConfig } from './gateway-config.js';
import type { LaneTree } from './lanes-suite.js';
import { measureRequests } from './load-generator.js';
import { formatNumber, renderMarkdownTable } from './markdown-table.js';
import type { Progress } from './progress.js';

const profiledLanes = [
  { name: 'native', model: gatewayModels.native },
  { name: 'prompted', model: gatewayModels.prompted },
] as const;

const allocationPreload = fileURLToPath(new URL('./allocation-sampling.ts', import.meta.url));

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

async function loadGateway(gateway: ChildServer, model: string, durationMs: number): Promise<number> {
  const pool = createPool(gateway.url);
  const body = benchRequestBody({ model, stream: false, toolCount: 1 });
  const result = await measureRequests({ dispatcher: pool, path: '/v1/chat/completions', body, connections: 32, durationMs });
  await pool.destroy();
  if (result.errors > 0) throw new Error(`${result.errors} errors while profiling, first: ${result.firstError}`);
  return result.requests;
}

/** `CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile`: thread 0 is the main thread (tsx adds a loader thread). */
function mainThreadProfile(directory: string): string {
  const file = readdirSync(directory).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (!file) throw new Error(`no main-thread .cpuprofile in ${directory}`);
  return path.join(directory, file);
}

type ProfileRun = { tree: LaneTree; lane: (typeof profiledLanes)[number]; directory: string; configPath: string; durationMs: number };

async function cpuProfileSection(run: ProfileRun): Promise<string> {
  const profileDirectory = path.join(run.directory, 'cpu');
  rmSync(profileDirectory, { recursive: true, force: true });
  const gateway = await spawnGateway({
    configPath: run.configPath,
    logPath: path.join(run.directory, 'cpu.log'),
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`],
    root: run.tree.root,
  });
  await loadGateway(gateway, run.lane.model, 1500);
  const window = { startUs: nowUs(), endUs: 0 };
  const requests = await loadGateway(gateway, run.lane.model, run.durationMs);
  window.endUs = nowUs();
  // The profile is written when the process exits (server.ts exits on SIGTERM).
  await gateway.stop();
  const profilePath = mainThreadProfile(profileDirectory);
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const summary = summariseCpuProfile(profile, { window, limit: 40, root: run.tree.root });
  const perRequest = (ms: number) => formatNumber((ms * 1000) / Math.max(1, requests), 2);
  return [
    `Busy ${perRequest(summary.busyMs)} µs per request over ${formatNumber(requests)} requests (idle ${formatNumber(summary.idleMs)} ms). Profile: \`${profilePath}\``,
    '',
    renderMarkdownTable(
      ['Area', 'self µs/request', 'on stack µs/request'],
      summary.areas.slice(0, 20).map((area) => [area.name, perRequest(area.selfMs), perRequest(area.onStackMs ?? 0)]),
    ),
    '',
    renderMarkdownTable(
      ['Function (self time)', 'µs/request', 'share'],
      summary.functions.map((hotspot) => [hotspot.name, perRequest(hotspot.selfMs), `${(hotspot.share * 100).toFixed(1)} %`]),
    ),
  ].join('\n');
}

async function allocationSection(run: ProfileRun): Promise<string> {
  const profilePath = path.join(run.directory, 'allocations.heapprofile');
  const gateway = await spawnGateway({
    configPath: run.configPath,
    logPath: path.join(run.directory, 'allocations.log'),
    nodeFlags: ['--import', 'tsx', '--import', allocationPreload],
    root: run.tree.root,
    environment: { ALLOCATION_PROFILE_PATH: profilePath },
  });
  await loadGateway(gateway, run.lane.model, 1500);
  process.kill(gateway.pid, 'SIGUSR2');
  const requests = await loadGateway(gateway, run.lane.model, run.durationMs);
  process.kill(gateway.pid, 'SIGUSR2');
  // The profile is written synchronously on the signal; give the process a moment to take it.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await gateway.stop();
  const summary = summariseAllocationProfile(JSON.parse(readFileSync(profilePath, 'utf8')) as AllocationProfile, run.tree.root, 25);
  const perRequest = (bytes: number) => formatNumber(bytes / Math.max(1, requests));
  return [
    `Allocated ${perRequest(summary.totalBytes)} bytes per request over ${formatNumber(requests)} requests (sampled every 4 KB, freed objects included). Profile: \`${profilePath}\``,
    '',
    renderMarkdownTable(
      ['Function (bytes allocated)', 'bytes/request', 'share'],
      summary.functions.map((hotspot) => [hotspot.name, perRequest(hotspot.bytes), `${(hotspot.share * 100).toFixed(1)} %`]),
    ),
  ].join('\n');
}

export async function profileLanes(trees: LaneTree[], upstreamUrl: string, settings: BenchSettings, progress: Progress): Promise<string> {
  const directory = process.env.BENCH_PROFILE_DIR ?? path.join(os.tmpdir(), `interlingua-lane-profiles-${Date.now()}`);
  mkdirSync(directory, { recursive: true });
  const configPath = writeGatewayConfig(path.join(directory, 'gateway.json'), upstreamUrl, settings.gatewayLogLevel);
  const durationMs = settings.quick ? 3000 : 8000;
  const sections: string[] = [];
  for (const lane of profiledLanes) {
    for (const [index, tree] of trees.entries()) {
      const runDirectory = path.join(directory, `${lane.name}-${index}`);
      mkdirSync(runDirectory, { recursive: true });
      const run: ProfileRun = { tree, lane, directory: runDirectory, configPath, durationMs };
      progress(`profiling ${lane.name} @ ${tree.label} (${tree.commit}): CPU, then allocations, ${durationMs} ms each`);
      const cpu = await cpuProfileSection(run);
      const allocations = await allocationSection(run);
      sections.push(`## ${lane.name} lane @ ${tree.label} (${tree.commit})\n\n${cpu}\n\n${allocations}`);
    }
  }
  return sections.join('\n\n');
}
