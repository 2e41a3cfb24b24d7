/** A CPU profile's summary on a loaded machine: a sample after the process was descheduled is not credited whole. */
import { describe, expect, it } from 'vitest';
import { summariseCpuProfile, type CpuProfile } from '../../bench/cpu-profile-summary.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

describe('summariseCpuProfile', () => {
  it('credits one sample with at most four times the median interval', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('busy', 'node:internal/streams/readable') },
        { id: 3, callFrame: frame('helper', 'node:internal/util') },
      ],
      startTime: 0,
      endTime: 1000,
      // The helper's one sample came 500 µs after the one before it: the process was not running meanwhile.
      samples: [2, 2, 2, 2, 3, 2],
      timeDeltas: [100, 100, 100, 100, 500, 100],
    };
    const summary = summariseCpuProfile(profile);
    expect(summary.busyMs).toBeCloseTo(0.9);
    expect(summary.functions.map((hotspot) => [hotspot.name, hotspot.selfMs])).toEqual([
      ['busy node:internal/streams/readable:1', 0.5],
      ['helper node:internal/util:1', 0.4],
    ]);
  });
});
