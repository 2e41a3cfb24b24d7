/**
 * How long and how wide the suite runs. The full suite takes a few minutes; `BENCH_QUICK=1` is a
 * one-minute smoke run with the same steps. `BENCH_ROUNDS` and `BENCH_WINDOW_MS` override either.
 */

export type BenchSettings = {
  quick: boolean;
  /** Round-robin rounds: each contender is measured once per round, and medians are reported. */
  rounds: number;
  /** One measurement window (non-streaming and streaming). */
  windowMs: number;
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
  const windowMs = positiveInteger(environment.BENCH_WINDOW_MS) ?? (quick ? 500 : 1500);
  return {
    quick,
    rounds: positiveInteger(environment.BENCH_ROUNDS) ?? (quick ? 2 : 5),
    windowMs,
    growthWindowMs: Math.round((windowMs * 2) / 3),
    warmupMs: quick ? 300 : 800,
    connections: [1, 32, 256],
    streams: [1, 64],
    toolCounts: [1, 20, 200],
    idleStreamCounts: [100, 1000],
    gatewayLogLevel: environment.BENCH_GATEWAY_LOG_LEVEL ?? 'info',
  };
}
