/**
 * The whole suite in one process tree: the fake upstream, the bare proxy and the gateway as child
 * processes, the load generator here; probes, then each measurement with contenders alternated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import { ChildProcesses } from './child-processes.js';
import { spawnGateway, spawnServerProcess, type ChildServer } from './child-servers.js';
import { runCostScenario } from './cost-scenario.js';
import { closeContenders, gatewayContenders, upstreamContender, type Contender } from './contenders.js';
import { gatewayModels, writeGatewayConfig } from './gateway-config.js';
import { measureIdleStreamMemory } from './idle-stream-memory.js';
import { probeContender } from './probe-contender.js';
import type { Progress } from './progress.js';
import { runRequestScenario, runToolGrowthScenario } from './request-scenarios.js';
import { runStreamScenario } from './stream-scenario.js';

function describeContender(contender: Contender): string | undefined {
  if (contender.unavailable) return `${contender.name}: left out: ${contender.unavailable}`;
  if (contender.note) return `${contender.name}: ${contender.note}`;
  return undefined;
}

async function measureMemory(
  upstream: ChildServer,
  gatewayOptions: { configPath: string; logPath: string },
  settings: BenchSettings,
  children: ChildProcesses,
  progress: Progress,
): Promise<BenchFigures['memory']> {
  // Fresh processes, so that the heap left by the load runs does not blur the per-stream figure.
  progress(`idle streams memory (${settings.idleStreamCounts.join(', ')} streams): bare proxy`);
  const bareProxy = await children.add(spawnServerProcess('bare-proxy', upstream.url));
  const figures = await measureIdleStreamMemory(
    { name: 'bare proxy', url: bareProxy.url, path: '/hold/v1/chat/completions', model: 'hold', rssKb: bareProxy.rssKb },
    settings.idleStreamCounts,
  );
  await children.stop(bareProxy);
  progress(`idle streams memory (${settings.idleStreamCounts.join(', ')} streams): gateway`);
  const gateway = await children.add(spawnGateway(gatewayOptions));
  figures.push(
    ...(await measureIdleStreamMemory(
      { name: 'gateway', url: gateway.url, path: '/v1/chat/completions', model: gatewayModels.idle, rssKb: gateway.rssKb },
      settings.idleStreamCounts,
    )),
  );
  await children.stop(gateway);
  return figures;
}

export async function runSuite(settings: BenchSettings, progress: Progress): Promise<BenchFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-'));
  const children = new ChildProcesses();
  let failed = true;
  try {
    progress('starting the fake upstream, the bare proxy and the gateway');
    const upstream = await children.add(spawnServerProcess('fake-upstream'));
    const bareProxy = await children.add(spawnServerProcess('bare-proxy', upstream.url));
    const gatewayOptions = {
      configPath: writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, settings.gatewayLogLevel),
      logPath: path.join(directory, 'gateway.log'),
    };
    const gateway = await children.add(spawnGateway(gatewayOptions));

    const contenders = [
      upstreamContender('direct', upstream.url),
      upstreamContender('bare proxy', bareProxy.url, bareProxy),
      ...gatewayContenders(gateway.url, gateway),
    ];
    for (const contender of contenders) await probeContender(contender);
    const measured = contenders.filter((contender) => !contender.unavailable);
    const notes = contenders.map(describeContender).filter((note): note is string => note !== undefined);
    for (const note of notes) progress(note);

    const requests = await runRequestScenario(measured, settings, progress);
    const streams = await runStreamScenario(measured, settings, progress);
    const growth = await runToolGrowthScenario(
      measured.filter((contender) => contender.name !== 'direct'),
      settings,
      progress,
    );
    const plain = measured.find((contender) => contender.name === 'gateway native');
    const skipped: BenchFigures['skipped'] = [];
    // Two more gateways to start and measure: a quick run leaves them to `npm run bench -- --cost`.
    if (settings.quick)
      skipped.push({ section: 'cost rows', reason: 'left out of BENCH_QUICK=1 runs (npm run bench -- --cost measures them)' });
    const cost =
      plain && !settings.quick
        ? await runCostScenario({ plain, upstream, directory, children }, settings, progress)
        : { figures: [], notes: settings.quick ? [] : ['cost rows: not measured: the plain gateway native contender was left out'] };
    notes.push(...cost.notes);
    await closeContenders(contenders);
    await children.stop(gateway);
    await children.stop(bareProxy);

    const memory = await measureMemory(upstream, gatewayOptions, settings, children, progress);
    failed = false;
    return { requests, streams, growth, cost: cost.figures, memory, notes, skipped };
  } finally {
    await children.stopAll();
    // Keep the gateway's log when something went wrong: it is the first place to look.
    if (failed) progress(`gateway log and config kept in ${directory}`);
    else rmSync(directory, { recursive: true, force: true });
  }
}
