/**
 * How long and how wide the suite runs. The full suite takes a few minutes; `BENCH_QUICK=1` is a
 * one-minute smoke run: shorter windows, and the widest loads (256 connections, 64 streams, 1000 idle
 * streams), the cost rows and the parser and decoder sections left out (each has its own command).
 * `BENCH_ROUNDS` and `BENCH_WINDOW_MS` override either (the lanes' rounds and windows too).
 */

export type BenchSettings = {
  quick: boolean;
  /** Round-robin rounds: each contender is measured once per round, and medians are reported. */
  rounds: number;
  /** One measurement window (non-streaming and streaming). */
  windowMs: number;
  /**
   * The lanes' rounds and window (`--lanes`): many short rounds, since their figure is the median of
   * paired per-round ratios. On the shared host 21 rounds of 600 ms gave ratios that repeated where 5
   * rounds of 1.5 s (the same time) swung by a third between runs: a burst of someone else's load then
   * spoils one round in twenty, not one in five (docs/performance.md, eighth session).
   */
  laneRounds: number;
  laneWindowMs: number;
  /** One window of the tool-count growth measurement (1 connection, latency only). */
  growthWindowMs: number;
  /** A discarded first window per contender, so that JIT warm-up is not measured. */
  warmupMs: number;
  connections: number[];
  streams: number[];
  toolCounts: number[];
  idleStreamCounts: number[];
  /** The gateway's log level: `info`, as in production, unless told otherwise. */
  gatewayLogLevel: string;
};

function positiveInteger(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return value !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}

export function readBenchSettings(environment: NodeJS.ProcessEnv): BenchSettings {
  const quick = environment.BENCH_QUICK === '1' || environment.BENCH_QUICK === 'true';
  // What the environment says wins over every default, the lanes' included.
  const givenRounds = positiveInteger(environment.BENCH_ROUNDS);
  const givenWindowMs = positiveInteger(environment.BENCH_WINDOW_MS);
  const windowMs = givenWindowMs ?? (quick ? 500 : 1500);
  return {
    quick,
    rounds: givenRounds ?? (quick ? 2 : 5),
    windowMs,
    laneRounds: givenRounds ?? (quick ? 3 : 21),
    laneWindowMs: givenWindowMs ?? (quick ? 300 : 600),
    growthWindowMs: Math.round((windowMs * 2) / 3),
    warmupMs: quick ? 300 : 800,
    // The widest loads took most of a quick run's time (the parser section most of all: see run.ts).
    connections: quick ? [1, 32] : [1, 32, 256],
    streams: quick ? [1, 16] : [1, 64],
    toolCounts: quick ? [1, 200] : [1, 20, 200],
    idleStreamCounts: quick ? [100] : [100, 1000],
    gatewayLogLevel: environment.BENCH_GATEWAY_LOG_LEVEL ?? 'info',
  };
}
