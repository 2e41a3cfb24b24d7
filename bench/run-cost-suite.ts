/**
 * `npm run bench -- --cost`: the Cost rows alone (the fake upstream, the plain gateway, and the keyed,
 * limited, metered and traced ones), for iterating on what a request pays for keys, limits, metrics and traces.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import { ChildProcesses } from './child-processes.js';
import { spawnGateway, spawnServerProcess } from './child-servers.js';
import { closeContenders, gatewayContenders } from './contenders.js';
import { runCostScenario } from './cost-scenario.js';
import { writeGatewayConfig } from './gateway-config.js';
import { probeContender } from './probe-contender.js';
import type { Progress } from './progress.js';

export async function runCostSuite(settings: BenchSettings, progress: Progress): Promise<BenchFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-cost-'));
  const children = new ChildProcesses();
  try {
    progress('starting the fake upstream and the plain gateway');
    const upstream = await children.add(spawnServerProcess('fake-upstream'));
    const gateway = await children.add(
      spawnGateway({
        configPath: writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, settings.gatewayLogLevel),
        logPath: path.join(directory, 'gateway.log'),
      }),
    );
    const contenders = gatewayContenders(gateway.url, gateway);
    const plain = contenders[0]!;
    await probeContender(plain);
    const cost = await runCostScenario({ plain, upstream, directory, children }, settings, progress);
    await closeContenders(contenders);
    return { requests: [], streams: [], growth: [], cost: cost.figures, memory: [], notes: cost.notes, skipped: [] };
  } finally {
    await children.stopAll();
    rmSync(directory, { recursive: true, force: true });
  }
}
