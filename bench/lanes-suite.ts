/**
 * `npm run bench -- --lanes`: the gateway's two lanes (native, prompted) beside the bare proxy and the
 * floors (translating-floor.ts: translation alone; fastify-floor.ts: the design's stack), non-streaming at 1 and 32 connections, with CPU per request: a few minutes, for a before/after figure.
 * This tree is measured against the named baseline commit (baseline-checkout.ts) unless `--against`
 * names other checkouts (repeatable: a directory, `baseline`, or a commit) or `--no-baseline` none; each
 * runs its own src/server.ts and node_modules, and the rounds alternate between all the contenders, so a
 * shared machine's load falls on all alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineCommit, checkoutFor } from './baseline-checkout.js';
import type { RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import { ChildProcesses } from './child-processes.js';
import { repositoryRoot, spawnGateway, spawnServerProcess } from './child-servers.js';
import { closeContenders, floorContender, gatewayContenders, upstreamContender, type Contender } from './contenders.js';
import { writeGatewayConfig } from './gateway-config.js';
import { bestCpuTime, measureJsonParse } from './host-reference.js';
import { gitCommit } from './machine-info.js';
import { probeContender } from './probe-contender.js';
import type { Progress } from './progress.js';
import { runRequestScenario } from './request-scenarios.js';

/** One checkout whose gateway is measured; `label` names its rows. */
export type LaneTree = { label: string; root: string; commit: string };

export type LaneFigures = {
  trees: LaneTree[];
  requests: RequestFigures[];
  notes: string[];
  /** The 1, 5 and 15 minute load averages before and after: the machine may be shared. */
  loadAverage: { before: string; after: string };
  /** The host reference (bench/host-reference.ts): JSON.parse of a small call in ns, before and after, so that runs on two hosts or hours compare. */
  jsonParseNanoseconds: { before: number; after: number };
  /** Interleaved rounds per contender and connection count, and each round's window. */
  rounds: number;
  windowMs: number;
};

export const laneConnections = [1, 32];

function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

/** At least this many rounds: the minimum CPU per request over fewer interleaved runs per side says little. */
const fewestRounds = 3;

/** This checkout, and each one after an `--against` (labelled by its commit); the baseline when none is named. */
export function laneTrees(argv: readonly string[], progress: Progress): LaneTree[] {
  const trees: LaneTree[] = [{ label: 'this tree', root: repositoryRoot, commit: gitCommit() }];
  const named = argv.flatMap((argument, index) => (argument === '--against' ? [argv[index + 1]] : []));
  if (named.length === 0 && !argv.includes('--no-baseline')) named.push(baselineCommit);
  for (const argument of named) {
    if (argument === undefined || argument.startsWith('--'))
      throw new Error('--against needs a checkout directory, `baseline` or a commit');
    const root = checkoutFor(argument, progress);
    const commit = gitCommit(root);
    trees.push({ label: commit, root, commit });
  }
  return trees;
}

export async function runLanesSuite(trees: LaneTree[], settings: BenchSettings, progress: Progress): Promise<LaneFigures> {
  const before = loadAverage();
  const jsonParseBefore = measureJsonParse(bestCpuTime);
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-lanes-'));
  const children = new ChildProcesses();
  let failed = true;
  const contenders: Contender[] = [];
  try {
    progress(
      `starting the fake upstream and ${trees.length} gateway(s): ${trees.map((tree) => `${tree.label} (${tree.commit})`).join(', ')}`,
    );
    const upstream = await children.add(spawnServerProcess('fake-upstream'));
    const bareProxy = await children.add(spawnServerProcess('bare-proxy', upstream.url));
    contenders.push(upstreamContender('bare proxy', bareProxy.url, bareProxy));
    const translatingFloor = await children.add(spawnServerProcess('translating-floor', upstream.url));
    contenders.push(floorContender('translating floor', translatingFloor.url, translatingFloor));
    const floor = await children.add(spawnServerProcess('fastify-floor', upstream.url));
    contenders.push(floorContender('fastify floor', floor.url, floor));
    const configPath = writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, settings.gatewayLogLevel);
    for (const [index, tree] of trees.entries()) {
      const logPath = path.join(directory, `gateway-${index}.log`);
      const gateway = await children.add(spawnGateway({ configPath, logPath, root: tree.root }));
      contenders.push(...gatewayContenders(gateway.url, gateway, tree.label));
    }
    for (const contender of contenders) await probeContender(contender);
    const notes = contenders.flatMap((contender) => {
      const note = contender.unavailable ?? contender.note;
      return note === undefined ? [] : [`${contender.name}: ${note}`];
    });
    for (const note of notes) progress(note);
    const rounds = Math.max(fewestRounds, settings.laneRounds);
    const requests = await runRequestScenario(
      contenders.filter((contender) => !contender.unavailable),
      { ...settings, rounds, windowMs: settings.laneWindowMs },
      progress,
      laneConnections,
    );
    failed = false;
    return {
      trees,
      requests,
      notes,
      loadAverage: { before, after: loadAverage() },
      jsonParseNanoseconds: { before: jsonParseBefore, after: measureJsonParse(bestCpuTime) },
      rounds,
      windowMs: settings.laneWindowMs,
    };
  } finally {
    await closeContenders(contenders);
    await children.stopAll();
    if (failed) progress(`gateway logs and config kept in ${directory}`);
    else rmSync(directory, { recursive: true, force: true });
  }
}
