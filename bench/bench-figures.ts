/** The suite's results: per-round measurements folded into medians (with the spread over rounds kept). */
import type { RequestLoadResult } from './load-generator.js';
import { median } from './statistics.js';
import type { StreamLoadResult } from './stream-load.js';

export type Spread = { min: number; max: number };

export type RequestFigures = {
  contender: string;
  connections: number;
  /** Tools in each request (1 unless this is the growth measurement). */
  tools: number;
  /** Distinct tool lists the requests rotate through; absent: the same list in every request, as agents send it. */
  toolLists?: number;
  requestsPerSecond: number;
  spread: Spread;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the contender's process per request, in µs (NaN when direct). */
  cpuUsPerRequest: number;
  /** The same, round by round in the order measured: for ratios between contenders of one run (paired-cpu-ratio.ts). */
  cpuUsByRound?: number[];
  errors: number;
  firstError?: string;
};

export type StreamFigures = {
  contender: string;
  streams: number;
  chunksPerSecond: number;
  spread: Spread;
  ttfbP50Ms: number;
  ttfbP99Ms: number;
  /** CPU time of the contender's process per upstream chunk, in µs (NaN when direct). */
  cpuUsPerChunk: number;
  errors: number;
  firstError?: string;
};

export type MemoryFigures = {
  process: string;
  streams: number;
  baselineRssKb: number;
  rssKb: number;
  /** (RSS − baseline) ÷ streams: includes heap growth the baseline did not settle. */
  kbPerStream: number;
  /** RSS growth ÷ streams added since the previous, smaller count: the cost of one more stream. */
  marginalKbPerStream: number;
};

/** A section the suite could not measure, with the reason. */
export type SkippedSection = { section: string; reason: string };

export type BenchFigures = {
  requests: RequestFigures[];
  streams: StreamFigures[];
  growth: RequestFigures[];
  /** The plain gateway's native lane beside keyed, rate-limited, metered (and traced) configs (cost-scenario.ts). */
  cost: RequestFigures[];
  memory: MemoryFigures[];
  /** Contenders that were probed but not measured, or measured with a caveat. */
  notes: string[];
  skipped: SkippedSection[];
};

function spreadOf(values: number[]): Spread {
  return { min: Math.min(...values), max: Math.max(...values) };
}

function firstErrorOf(rounds: { firstError?: string }[]): { firstError?: string } {
  const found = rounds.find((round) => round.firstError !== undefined)?.firstError;
  return found === undefined ? {} : { firstError: found };
}

export function summariseRequests(
  contender: string,
  connections: number,
  tools: number,
  rounds: (RequestLoadResult & { cpuMs: number })[],
): RequestFigures {
  const rates = rounds.map((round) => round.requestsPerSecond);
  const cpuByRound = rounds.map((round) => (round.cpuMs * 1000) / Math.max(1, round.requests));
  return {
    contender,
    connections,
    tools,
    requestsPerSecond: median(rates),
    spread: spreadOf(rates),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    cpuUsPerRequest: median(cpuByRound),
    cpuUsByRound: cpuByRound,
    errors: rounds.reduce((total, round) => total + round.errors, 0),
    ...firstErrorOf(rounds),
  };
}

export function summariseStreams(
  contender: string,
  streams: number,
  chunksPerReply: number,
  rounds: (StreamLoadResult & { cpuMs: number })[],
): StreamFigures {
  const rates = rounds.map((round) => round.chunksPerSecond);
  return {
    contender,
    streams,
    chunksPerSecond: median(rates),
    spread: spreadOf(rates),
    ttfbP50Ms: median(rounds.map((round) => round.ttfbP50Ms)),
    ttfbP99Ms: median(rounds.map((round) => round.ttfbP99Ms)),
    cpuUsPerChunk: median(rounds.map((round) => (round.cpuMs * 1000) / Math.max(1, round.completed * chunksPerReply))),
    errors: rounds.reduce((total, round) => total + round.errors, 0),
    ...firstErrorOf(rounds),
  };
}
