/**
 * The "Cost" row: the plain gateway's native lane beside the same lane through a keyed,
 * rate-limited, metered config (in-process state), and the same with traces exported to a loopback
 * OTLP receiver, measured side by side in one run. The figure is CPU per request over the plain one's.
 */
import path from 'node:path';
import type { RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import type { ChildProcesses } from './child-processes.js';
import { spawnGateway, spawnServerProcess, type ChildServer } from './child-servers.js';
import { closeContenders, keyedContender, type Contender } from './contenders.js';
import { benchClientKey, writeGatewayConfig } from './gateway-config.js';
import { probeContender } from './probe-contender.js';
import type { Progress } from './progress.js';
import { runRequestScenario } from './request-scenarios.js';

export type CostSetting = {
  /** The plain gateway's native contender, already probed and measured above. */
  plain: Contender;
  upstream: ChildServer;
  directory: string;
  children: ChildProcesses;
};

/** The connection counts of the cost rows: one client, and the throughput targets' 32. */
export const costConnections = [1, 32];

export async function runCostScenario(
  setting: CostSetting,
  settings: BenchSettings,
  progress: Progress,
): Promise<{ figures: RequestFigures[]; notes: string[] }> {
  const { upstream, directory, children } = setting;
  progress('cost rows: starting a keyed, rate-limited, metered gateway, and one that also exports traces');
  const sink = await children.add(spawnServerProcess('otlp-sink'));
  const gatewayOf = (name: string, variant: Parameters<typeof writeGatewayConfig>[3]) =>
    children.add(
      spawnGateway({
        configPath: writeGatewayConfig(path.join(directory, `${name}.json`), upstream.url, settings.gatewayLogLevel, variant),
        logPath: path.join(directory, `${name}.log`),
      }),
    );
  const metered = await gatewayOf('gateway-metered', { type: 'metered' });
  const traced = await gatewayOf('gateway-traced', { type: 'metered-traced', otlpEndpoint: sink.url });
  const team = await gatewayOf('gateway-team', { type: 'team' });
  const operations = await gatewayOf('gateway-operations', { type: 'operations' });
  const costContenders = [
    keyedContender('gateway native, keyed + limited + metered', metered.url, metered, benchClientKey),
    keyedContender('gateway native, keyed + limited + metered + traced', traced.url, traced, benchClientKey),
    keyedContender('gateway native, keyed + limited + metered + deployments + prices + budget', team.url, team, benchClientKey),
    // No keys configured: the key it sends is not read (the server-wide budget applies).
    keyedContender('gateway native, deployments + prices + budget', operations.url, operations, benchClientKey),
  ];
  for (const contender of costContenders) await probeContender(contender);
  const notes = costContenders
    .filter((contender) => contender.unavailable)
    .map((contender) => `${contender.name}: left out: ${contender.unavailable}`);
  const measured = [setting.plain, ...costContenders.filter((contender) => !contender.unavailable)];
  // Twice the rounds of elsewhere: a 5 % difference must stand out of the shared machine's noise, and
  // the ratio is the median of per-round ratios (paired-cpu-ratio.ts), which wants many rounds.
  const figures = await runRequestScenario(measured, { ...settings, rounds: Math.max(settings.rounds * 2, 8) }, progress, costConnections);
  await closeContenders(costContenders);
  await Promise.all([children.stop(metered), children.stop(traced), children.stop(team), children.stop(operations)]);
  await children.stop(sink);
  return { figures, notes };
}
