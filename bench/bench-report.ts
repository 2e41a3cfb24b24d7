/** The suite's markdown report: machine header, targets, then one table per measurement with raw figures. */
import type { BenchFigures, RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import { checkTargets } from './bench-targets.js';
import type { MachineInfo } from './machine-info.js';
import { formatNumber, formatRatio, renderMarkdownTable } from './markdown-table.js';
import { pairedCpuRatio } from './paired-cpu-ratio.js';
import type { ParserSection } from './parser-benchmarks-hook.js';

function header(machine: MachineInfo, settings: BenchSettings): string {
  const mode = settings.quick ? 'quick (BENCH_QUICK=1)' : 'full';
  return [
    `# Interlingua bench`,
    '',
    `- Date: ${machine.date}`,
    `- Node: ${machine.node} · CPU: ${machine.cpu} × ${machine.cores} · ${machine.system} · load average at start: ${machine.loadAverage}`,
    `- Commit: ${machine.commit} · gateway log level: ${settings.gatewayLogLevel}`,
    `- Mode: ${mode}: ${settings.rounds} rounds × ${settings.windowMs} ms windows (tool growth: ${settings.growthWindowMs} ms), contenders alternated, medians over rounds`,
  ].join('\n');
}

function requestTable(figures: BenchFigures): string {
  const find = (contender: string, connections: number) =>
    figures.requests.find((row) => row.contender === contender && row.connections === connections);
  const rows = figures.requests.map((row) => {
    const bare = find('bare proxy', row.connections);
    const direct = find('direct', row.connections);
    return [
      row.contender,
      String(row.connections),
      formatNumber(row.requestsPerSecond),
      `${formatNumber(row.spread.min)}–${formatNumber(row.spread.max)}`,
      formatRatio(bare ? row.requestsPerSecond / bare.requestsPerSecond : undefined),
      formatNumber(row.p50Ms, 3),
      formatNumber(row.p99Ms, 3),
      direct ? formatNumber(row.p50Ms - direct.p50Ms, 3) : '–',
      formatNumber(row.cpuUsPerRequest),
      String(row.errors),
    ];
  });
  return renderMarkdownTable(
    [
      'Contender',
      'Connections',
      'req/s',
      'req/s min–max',
      '× bare proxy',
      'p50 ms',
      'p99 ms',
      'p50 added vs direct, ms',
      'CPU µs/request',
      'Errors',
    ],
    rows,
  );
}

function streamTable(figures: BenchFigures): string {
  const rows = figures.streams.map((row) => {
    const bare = figures.streams.find((other) => other.contender === 'bare proxy' && other.streams === row.streams);
    return [
      row.contender,
      String(row.streams),
      formatNumber(row.chunksPerSecond),
      `${formatNumber(row.spread.min)}–${formatNumber(row.spread.max)}`,
      formatRatio(bare ? row.chunksPerSecond / bare.chunksPerSecond : undefined),
      formatNumber(row.ttfbP50Ms, 3),
      formatNumber(row.ttfbP99Ms, 3),
      formatNumber(row.cpuUsPerChunk, 2),
      String(row.errors),
    ];
  });
  return renderMarkdownTable(
    ['Contender', 'Streams', 'chunks/s', 'chunks/s min–max', '× bare proxy', 'TTFB p50 ms', 'TTFB p99 ms', 'CPU µs/chunk', 'Errors'],
    rows,
  );
}

function growthTable(figures: BenchFigures): string {
  const oneTool = (row: RequestFigures) =>
    figures.growth.find((other) => other.contender === row.contender && other.tools === 1 && other.toolLists === undefined);
  const rows = figures.growth.map((row) => [
    row.contender,
    String(row.tools),
    row.toolLists === undefined ? 'same every request' : `${row.toolLists} rotating`,
    formatNumber(row.p50Ms, 3),
    formatNumber(row.p99Ms, 3),
    formatRatio(row.p50Ms / (oneTool(row)?.p50Ms ?? Number.NaN)),
    formatNumber(row.cpuUsPerRequest),
    String(row.errors),
  ]);
  return renderMarkdownTable(['Contender', 'Tools', 'Tool list', 'p50 ms', 'p99 ms', 'p50 × 1 tool', 'CPU µs/request', 'Errors'], rows);
}

function costTable(figures: BenchFigures): string {
  const rows = figures.cost.map((row) => {
    const plain = figures.cost.find((other) => other.contender === 'gateway native' && other.connections === row.connections);
    return [
      row.contender,
      String(row.connections),
      formatNumber(row.requestsPerSecond),
      formatNumber(row.p50Ms, 3),
      formatNumber(row.cpuUsPerRequest),
      formatRatio(pairedCpuRatio(row, plain)),
      String(row.errors),
    ];
  });
  return renderMarkdownTable(['Contender', 'Connections', 'req/s', 'p50 ms', 'CPU µs/request', 'CPU × plain', 'Errors'], rows);
}

/** The cost rows with their target, for `npm run bench -- --cost`. */
export function renderCostSection(figures: BenchFigures): string {
  const verdicts = checkTargets(figures)
    .filter((check) => check.target.includes('÷ plain gateway native'))
    .map((target) => `Target: ${target.target}: ${target.measured} (goal ${target.goal}): ${target.verdict}`);
  return [costTable(figures), ...verdicts, ...figures.notes.map((note) => `- ${note}`)].join('\n\n');
}

function memoryTable(figures: BenchFigures): string {
  const rows = figures.memory.map((row) => [
    row.process,
    String(row.streams),
    formatNumber(row.baselineRssKb / 1024, 1),
    formatNumber(row.rssKb / 1024, 1),
    formatNumber(row.kbPerStream, 1),
    formatNumber(row.marginalKbPerStream, 1),
  ]);
  return renderMarkdownTable(['Process', 'Idle streams', 'Baseline RSS MB', 'RSS MB', 'KB/stream vs baseline', 'KB/stream marginal'], rows);
}

function errorNotes(figures: BenchFigures): string[] {
  return [...figures.requests, ...figures.growth, ...figures.cost, ...figures.streams]
    .filter((row) => row.firstError !== undefined)
    .map((row) => `- ${row.contender}: first error: ${row.firstError}`);
}

export function renderBenchReport(machine: MachineInfo, settings: BenchSettings, figures: BenchFigures, parsers: ParserSection): string {
  const targets = checkTargets(figures).map((check) => [check.target, check.measured, check.goal, check.verdict]);
  const notes = [
    ...figures.notes.map((note) => `- ${note}`),
    ...figures.skipped.map((skip) => `- ${skip.section}: not measured: ${skip.reason}`),
    ...errorNotes(figures),
  ];
  return [
    header(machine, settings),
    '## Targets (issue 5)',
    renderMarkdownTable(['Target', 'Measured', 'Goal', 'Verdict'], targets),
    '## Non-streaming (one tool call per reply, 1 tool in the request)',
    requestTable(figures),
    '## Streaming (a 500-chunk reply; chunks counted at the upstream)',
    streamTable(figures),
    '## Tool growth (non-streaming, 1 connection)',
    growthTable(figures),
    '## Cost of keys, limits and metrics (and traces): the native lane, non-streaming (bench/cost-scenario.ts)',
    costTable(figures),
    '## Memory with idle streams (held open by the upstream after their first chunk)',
    memoryTable(figures),
    '## Parsers (bench/parsers.ts)',
    parsers.markdown,
    '## Notes',
    [
      ...notes,
      '- Every contender asks the upstream for what its client asked: the non-streaming rows read one JSON reply, the streaming rows an SSE stream. The gateway turns both into the same events (one code path after the adapter).',
      '- The fake upstream sends the 500-chunk reply one SSE frame per event-loop turn, like a server emitting tokens; short replies go out in one write. The direct streaming row is that pace: a ceiling for every contender, which the bare proxy nearly reaches, so the streaming ratio understates the gap in CPU µs/chunk.',
      '- Tool growth, "same every request": agents resend one list on every turn, and the gateway parses, translates and serialises a list it has seen before once (src/plugins/known-tool-lists.ts). "32 rotating": a different list on every request, the cost without that reuse.',
      '- Cost rows: "keyed + limited + metered" is a gateway whose one client key has a policy object (model globs, a tool deny rule, per-key limits) under server-wide limits, requests/tokens per minute and concurrent streams counted in-process but never reached; metrics are on in every gateway row. "+ traced" also exports one span per request and one per upstream call over OTLP/HTTP to a loopback receiver (bench/otlp-sink.ts).',
      "- CPU µs/request and µs/chunk are the contender process's user+system time over the window (10 ms ticks), the least noise-sensitive figure on a shared machine.",
    ].join('\n'),
  ].join('\n\n');
}
