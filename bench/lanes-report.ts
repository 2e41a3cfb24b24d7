/**
 * The `--lanes` report: each lane's CPU per request per checkout beside the bare proxy's (median and
 * minimum over the interleaved rounds), and this tree's over each other checkout's.
 */
import type { RequestFigures } from './bench-figures.js';
import type { GatewayLane } from './contenders.js';
import { laneConnections, type LaneFigures } from './lanes-suite.js';
import type { MachineInfo } from './machine-info.js';
import { formatNumber, formatRatio, renderMarkdownTable } from './markdown-table.js';
import { pairedCpuRatio } from './paired-cpu-ratio.js';

const lanes: GatewayLane[] = ['gateway native', 'gateway prompted'];

function cpuRange(figure: RequestFigures | undefined): { min?: number; max?: number } {
  const rounds = figure?.cpuUsByRound;
  if (!rounds || rounds.length === 0) return {};
  return { min: Math.min(...rounds), max: Math.max(...rounds) };
}

function ratio(mine: number | undefined, other: number | undefined): number | undefined {
  return mine === undefined || other === undefined ? undefined : mine / other;
}

export function renderLanesReport(machine: MachineInfo, figures: LaneFigures): string {
  return [
    '# Interlingua bench: lanes',
    '',
    `- Date: ${machine.date} · Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores}`,
    renderLanesSection(figures, '###'),
  ].join('\n');
}

/**
 * The lanes' figures without a title: the `--lanes` report's body, and the full bench's section on the
 * baseline. `heading` is the level of each comparison's heading.
 */
export function renderLanesSection(figures: LaneFigures, heading: string): string {
  const [mine, ...others] = figures.trees;
  const find = (contender: string, connections: number): RequestFigures | undefined =>
    figures.requests.find((figure) => figure.contender === contender && figure.connections === connections);
  const laneRow = (lane: GatewayLane, label: string | undefined, connections: number) => find(`${lane} @ ${label}`, connections);

  const cpuRows = laneConnections.flatMap((connections) => {
    const bare = find('bare proxy', connections);
    const floor = find('fastify floor', connections);
    const contenders: [string, RequestFigures | undefined][] = [
      ['bare proxy', bare],
      ['translating floor', find('translating floor', connections)],
      ['fastify floor', floor],
      ...lanes.flatMap((lane) =>
        figures.trees.map((tree): [string, RequestFigures | undefined] => [
          `${lane.replace('gateway ', '')} @ ${tree.label}`,
          laneRow(lane, tree.label, connections),
        ]),
      ),
    ];
    return contenders.map(([name, figure]) => {
      const range = cpuRange(figure);
      return [
        name,
        String(connections),
        formatNumber(figure?.cpuUsPerRequest),
        formatNumber(range.min),
        formatNumber(range.max),
        formatNumber(figure?.requestsPerSecond),
        name === 'bare proxy' ? '1.00 ×' : formatRatio(pairedCpuRatio(figure, bare)),
        name === 'bare proxy' || name.endsWith(' floor') ? '' : formatRatio(pairedCpuRatio(figure, floor)),
      ];
    });
  });
  const cpuTable = renderMarkdownTable(
    [
      'Contender',
      'Connections',
      'CPU µs/request (median)',
      'min',
      'max',
      'req/s',
      'CPU × bare proxy (paired median)',
      'CPU × fastify floor (paired median)',
    ],
    cpuRows,
  );

  const comparisons = others.map((other) => {
    const rows = lanes.flatMap((lane) =>
      laneConnections.map((connections) => {
        const ours = laneRow(lane, mine?.label, connections);
        const theirs = laneRow(lane, other.label, connections);
        return [
          lane.replace('gateway ', ''),
          String(connections),
          formatRatio(pairedCpuRatio(ours, theirs)),
          formatRatio(ratio(cpuRange(ours).min, cpuRange(theirs).min)),
          formatNumber(cpuRange(theirs).min),
          formatNumber(cpuRange(ours).min),
        ];
      }),
    );
    return [
      `${heading} This tree against ${other.label}`,
      '',
      renderMarkdownTable(
        [
          'Lane',
          'Connections',
          'CPU ÷ (median of paired rounds)',
          'CPU ÷ (minimum ÷ minimum)',
          `${other.label}: min µs`,
          'this tree: min µs',
        ],
        rows,
      ),
      '',
    ].join('\n');
  });

  const errors = figures.requests
    .filter((figure) => figure.errors > 0)
    .map((figure) => `${figure.contender} (${figure.connections}): ${figure.errors} errors, first: ${figure.firstError}`);
  return [
    `- Load average (1, 5, 15 min): ${figures.loadAverage.before} before, ${figures.loadAverage.after} after`,
    `- Host reference (bench/host-reference.ts): JSON.parse of a small call ${figures.jsonParseNanoseconds.before} ns before, ${figures.jsonParseNanoseconds.after} ns after`,
    `- ${figures.trees.map((tree) => `${tree.label}: ${tree.root} at ${tree.commit}`).join(' · ')}`,
    `- ${figures.rounds} rounds of ${figures.windowMs} ms per contender and connection count, interleaved; CPU is the contender's process (/proc), per request; "min" and "max" over the rounds`,
    ...[...figures.notes, ...errors].map((note) => `- ${note}`),
    '',
    cpuTable,
    '',
    ...comparisons,
  ].join('\n');
}
