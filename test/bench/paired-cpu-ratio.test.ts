/** The cost rows' ratio: the median of per-round ratios, so that load drifting over a run cancels out. */
import { describe, expect, it } from 'vitest';
import type { RequestFigures } from '../../bench/bench-figures.js';
import { pairedCpuRatio } from '../../bench/paired-cpu-ratio.js';

function row(contender: string, cpuUsByRound: number[] | undefined, cpuUsPerRequest: number): RequestFigures {
  return {
    contender,
    connections: 32,
    tools: 1,
    requestsPerSecond: 1000,
    spread: { min: 1000, max: 1000 },
    p50Ms: 1,
    p99Ms: 2,
    cpuUsPerRequest,
    ...(cpuUsByRound ? { cpuUsByRound } : {}),
    errors: 0,
  };
}

describe('pairedCpuRatio', () => {
  it('pairs rounds: a load that doubles halfway leaves the ratio where it was', () => {
    // Quiet rounds, then busy ones: the medians of the two rows fall in different halves (300 ÷ 200 = 1.5).
    const plain = row('plain', [100, 100, 200, 200, 200], 200);
    const keyed = row('keyed', [110, 110, 220, 220, 220], 220);
    const skewed = row('keyed', [300, 110, 330, 330, 330], 330);
    expect(pairedCpuRatio(keyed, plain)).toBeCloseTo(1.1);
    expect(pairedCpuRatio(skewed, plain)).toBeCloseTo(1.65);
    expect(skewed.cpuUsPerRequest / plain.cpuUsPerRequest).toBeCloseTo(1.65);
    // One busy round alone: the medians land on different loads (220 ÷ 100 = 2.2), the pairs do not.
    const quietPlain = row('plain', [100, 200, 200, 100, 100], 100);
    const keyedOnce = row('keyed', [110, 220, 220, 110, 220], 220);
    expect(keyedOnce.cpuUsPerRequest / quietPlain.cpuUsPerRequest).toBeCloseTo(2.2);
    expect(pairedCpuRatio(keyedOnce, quietPlain)).toBeCloseTo(1.1);
  });

  it('falls back to the ratio of the medians without rounds to pair, and is undefined without a row', () => {
    expect(pairedCpuRatio(row('keyed', undefined, 330), row('plain', [100, 200], 300))).toBeCloseTo(1.1);
    expect(pairedCpuRatio(row('keyed', [1, 2, 3], 330), row('plain', [1, 2], 300))).toBeCloseTo(1.1);
    expect(pairedCpuRatio(undefined, row('plain', [1], 1))).toBeUndefined();
    expect(pairedCpuRatio(row('keyed', [1], 1), undefined)).toBeUndefined();
  });
});
