/** A parser-bench row measured in several fresh processes: each figure is the median over the processes. */
// Why: the same parser in the same conditions measures up to 2x apart from one fresh process to the next
// (12.2 and 21.8 MB/s streamed, glm, quiet machine), and best-of-N runs inside one process cannot see
// past it. Not only the JIT's choices: on the shared hosts here a plain walk over the bench's chunk array
// measured 5.5 ms in one process and 13 ms in the next, while a loop that touches no memory measured the
// same in both, so where the host placed a process's memory decides much of its speed. As JMH runs
// several forks, a row is measured in `forks` processes and reports the median, with the range beside it.
// The 10 MB / 1 MB ratios too: one process's 1 MB best time, the ratio's divisor, spreads as its speeds do
// (llama3's whole ratio read 15.5 and 20.6 in two quiet runs).

/** What each process measures of a row: its speeds, and its 10 MB / 1 MB time ratios. */
export type ForkMeasure = {
  wholeMegabytesPerSecond: number;
  streamMegabytesPerSecond: number;
  streamTenToOneRatio: number;
  wholeTenToOneRatio: number;
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median of each figure of `measures` (one per process), and the streamed range as `min–max` MB/s. */
export function medianOfForks(measures: readonly ForkMeasure[]): ForkMeasure & { streamRange: string } {
  if (measures.length === 0) throw new Error('medianOfForks needs at least one process');
  const round = (value: number) => Math.round(value * 10) / 10;
  const medianOf = (figure: keyof ForkMeasure) => round(median(measures.map((measure) => measure[figure])));
  const streamed = measures.map((measure) => measure.streamMegabytesPerSecond);
  return {
    wholeMegabytesPerSecond: medianOf('wholeMegabytesPerSecond'),
    streamMegabytesPerSecond: medianOf('streamMegabytesPerSecond'),
    streamTenToOneRatio: medianOf('streamTenToOneRatio'),
    wholeTenToOneRatio: medianOf('wholeTenToOneRatio'),
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
