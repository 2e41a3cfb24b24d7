/**
 * A contender's CPU per request over a baseline's, from the rounds they ran side by side: the median of
 * the per-round ratios. On the shared machine the load drifts over a run; two windows of one round see
 * nearly the same load, so their ratio cancels most of it, where a ratio of the two medians can pair a
 * quiet round of one with a busy round of the other.
 */
import type { RequestFigures } from './bench-figures.js';
import { median } from './statistics.js';

export function pairedCpuRatio(row: RequestFigures | undefined, baseline: RequestFigures | undefined): number | undefined {
  if (!row || !baseline) return undefined;
  const rounds = row.cpuUsByRound;
  const baselineRounds = baseline.cpuUsByRound;
  if (!rounds || !baselineRounds || rounds.length !== baselineRounds.length || rounds.length === 0)
    return row.cpuUsPerRequest / baseline.cpuUsPerRequest;
  return median(rounds.map((cpu, index) => cpu / baselineRounds[index]!));
}
