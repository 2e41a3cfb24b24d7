/** The `--lanes` report: each lane's CPU per request per checkout, and this tree's over the other's. */
import type { RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import type { GatewayLane } from './contenders.js';
import { laneConnections, type LaneFigures } from './lanes-suite.js';
import type { MachineInfo } from './machine-info.js';
import { formatNumber, formatRatio, renderMarkdownTable } from './markdown-table.js';

const lanes: GatewayLane[] = ['gateway native', 'gateway prompted'];

export function renderLanesReport(machine: MachineInfo, settings: BenchSettings, figures: LaneFigures): string {
  const [mine, ...others] = figures.trees;
  const row = (lane: GatewayLane, label: string | undefined, connections: number): RequestFigures | undefined =>
    figures.requests.find((figure) => figure.contender === `${lane} @ ${label}` && figure.connections === connections);
  const headers = ['Lane', 'Connections', ...figures.trees.flatMap((tree) => [`${tree.label}: µs CPU/request`, `${tree.label}: req/s`])];
  for (const other of others) headers.push(`CPU this tree ÷ ${other.label}`);
  const rows = lanes.flatMap((lane) =>
    laneConnections.map((connections) => {
      const cells = [lane.replace('gateway ', ''), String(connections)];
      for (const tree of figures.trees) {
        const figure = row(lane, tree.label, connections);
        cells.push(formatNumber(figure?.cpuUsPerRequest), formatNumber(figure?.requestsPerSecond));
      }
      const mineCpu = row(lane, mine?.label, connections)?.cpuUsPerRequest;
      for (const other of others) {
        const otherCpu = row(lane, other.label, connections)?.cpuUsPerRequest;
        cells.push(formatRatio(mineCpu === undefined || otherCpu === undefined ? undefined : mineCpu / otherCpu));
      }
      return cells;
    }),
  );
  const errors = figures.requests
    .filter((figure) => figure.errors > 0)
    .map((figure) => `${figure.contender} (${figure.connections}): ${figure.errors} errors, first: ${figure.firstError}`);
  return [
    '# Interlingua bench: lanes',
    '',
    `- Date: ${machine.date} · Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores}`,
    `- Load average (1, 5, 15 min): ${figures.loadAverage.before} before, ${figures.loadAverage.after} after`,
    `- ${figures.trees.map((tree) => `${tree.label}: ${tree.root} at ${tree.commit}`).join(' · ')}`,
    `- ${settings.rounds} rounds of ${settings.windowMs} ms per contender and connection count, alternated; medians`,
    ...[...figures.notes, ...errors].map((note) => `- ${note}`),
    '',
    renderMarkdownTable(headers, rows),
    '',
  ].join('\n');
}
