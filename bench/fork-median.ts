/** A parser-bench row measured in several fresh processes: its speeds are the median over the processes. */
// Why: the same parser in the same conditions measures up to 2x apart from one fresh process to the next
// (12.2 and 21.8 MB/s streamed, glm, quiet machine): each process's JIT settles into its own steady state
// (what got inlined and when), and best-of-N runs inside one process cannot see past it. As JMH runs
// several forks, a row is measured in `forks` processes and reports the median, with the range beside it.

/** What each process measures of a row's speed. */
export type ForkSpeed = { wholeMegabytesPerSecond: number; streamMegabytesPerSecond: number };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median speeds of `speeds` (one per process), and the streamed range as `min–max` MB/s. */
export function medianOfForks(speeds: readonly ForkSpeed[]): ForkSpeed & { streamRange: string } {
  if (speeds.length === 0) throw new Error('medianOfForks needs at least one process');
  const streamed = speeds.map((speed) => speed.streamMegabytesPerSecond);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    wholeMegabytesPerSecond: round(median(speeds.map((speed) => speed.wholeMegabytesPerSecond))),
    streamMegabytesPerSecond: round(median(streamed)),
    streamRange: `${Math.min(...streamed)}–${Math.max(...streamed)}`,
  };
}

/** `--forks N` (or `--forks=N`): how many fresh processes measure each row; 3 when not given. */
export function forksFrom(argv: readonly string[]): number {
  const index = argv.findIndex((argument) => argument === '--forks' || argument.startsWith('--forks='));
  if (index === -1) return 3;
  const flag = argv[index] as string;
  const value = Number(flag.startsWith('--forks=') ? flag.slice('--forks='.length) : argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--forks takes a whole number of processes, at least 1 (got ${flag})`);
  return value;
}
