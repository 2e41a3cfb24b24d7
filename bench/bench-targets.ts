/** Issue 5's targets, checked against one run's figures (ratios of contenders measured side by side). */
import type { BenchFigures, RequestFigures, StreamFigures } from './bench-figures.js';
import { formatNumber, formatRatio } from './markdown-table.js';
import { pairedCpuRatio } from './paired-cpu-ratio.js';

export type TargetCheck = { target: string; measured: string; goal: string; verdict: 'pass' | 'FAIL' | 'not measured' };

function requestsAt(figures: BenchFigures, contender: string, connections: number): RequestFigures | undefined {
  return figures.requests.find((row) => row.contender === contender && row.connections === connections);
}

function streamsAt(figures: BenchFigures, contender: string, streams: number): StreamFigures | undefined {
  return figures.streams.find((row) => row.contender === contender && row.streams === streams);
}

/** The row with the same list in every request (the targets' setting), not the rotating-lists row. */
function growth(figures: BenchFigures, contender: string, tools: number): RequestFigures | undefined {
  return figures.growth.find((row) => row.contender === contender && row.tools === tools && row.toolLists === undefined);
}

function check(
  target: string,
  value: number | undefined,
  goal: string,
  passes: (value: number) => boolean,
  format: (value: number) => string,
): TargetCheck {
  if (value === undefined || !Number.isFinite(value)) return { target, measured: '–', goal, verdict: 'not measured' };
  return { target, measured: format(value), goal, verdict: passes(value) ? 'pass' : 'FAIL' };
}

function ratio(numerator: number | undefined, denominator: number | undefined): number | undefined {
  return numerator === undefined || denominator === undefined ? undefined : numerator / denominator;
}

export function checkTargets(figures: BenchFigures): TargetCheck[] {
  const bare32 = requestsAt(figures, 'bare proxy', 32)?.requestsPerSecond;
  const direct1 = requestsAt(figures, 'direct', 1)?.p50Ms;
  const largestIdle = figures.memory.filter((row) => row.process === 'gateway').sort((left, right) => right.streams - left.streams)[0];
  const checks: TargetCheck[] = [
    check(
      'native req/s ÷ bare proxy req/s, 32 connections',
      ratio(requestsAt(figures, 'gateway native', 32)?.requestsPerSecond, bare32),
      '≥ 0.6 ×',
      (value) => value >= 0.6,
      formatRatio,
    ),
    check(
      'prompted req/s ÷ bare proxy req/s, 32 connections',
      ratio(requestsAt(figures, 'gateway prompted', 32)?.requestsPerSecond, bare32),
      '≥ 0.5 ×',
      (value) => value >= 0.5,
      formatRatio,
    ),
  ];
  for (const streams of [1, 64]) {
    const bare = streamsAt(figures, 'bare proxy', streams)?.chunksPerSecond;
    checks.push(
      check(
        `native chunks/s ÷ bare proxy chunks/s, ${streams} stream(s)`,
        ratio(streamsAt(figures, 'gateway native', streams)?.chunksPerSecond, bare),
        '≥ 0.5 ×',
        (value) => value >= 0.5,
        formatRatio,
      ),
    );
  }
  for (const lane of ['gateway native', 'gateway prompted']) {
    const p50 = requestsAt(figures, lane, 1)?.p50Ms;
    checks.push(
      check(
        `${lane}: p50 added latency over direct, 1 connection`,
        p50 === undefined || direct1 === undefined ? undefined : p50 - direct1,
        '< 1 ms',
        (value) => value < 1,
        (value) => `${formatNumber(value, 3)} ms`,
      ),
    );
  }
  checks.push(
    check(
      `gateway memory per idle stream (marginal, up to ${largestIdle?.streams ?? '–'} streams)`,
      largestIdle?.marginalKbPerStream,
      '≤ 150 KB',
      (value) => value <= 150,
      (value) => `${formatNumber(value, 1)} KB`,
    ),
  );
  const plain32 = figures.cost.find((row) => row.contender === 'gateway native' && row.connections === 32);
  // Issue 27's operations row, and issue 28's: deployments, prices and a budget on the plain gateway.
  const costGoals = [
    ['keyed + limited + metered', 'gateway native, keyed + limited + metered'],
    ['deployments + prices + budget', 'gateway native, deployments + prices + budget'],
  ] as const;
  for (const [label, contender] of costGoals)
    checks.push(
      check(
        `${label}: CPU per request ÷ plain gateway native, 32 connections`,
        // Round by round: the two windows of a round see the same load on the shared machine.
        pairedCpuRatio(
          figures.cost.find((row) => row.contender === contender && row.connections === 32),
          plain32,
        ),
        '≤ 1.10 ×',
        (value) => value <= 1.1,
        formatRatio,
      ),
    );
  for (const lane of ['gateway native', 'gateway prompted']) {
    checks.push(
      check(
        `${lane}: p50 latency with 200 tools ÷ with 1 tool`,
        ratio(growth(figures, lane, 200)?.p50Ms, growth(figures, lane, 1)?.p50Ms),
        '≤ 2 ×',
        (value) => value <= 2,
        formatRatio,
      ),
    );
  }
  return checks;
}
