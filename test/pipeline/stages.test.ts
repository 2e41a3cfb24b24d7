/** The stage table: each lane's list is ordered as the pipeline runs it, names real files, and ends in finalize then the run tail. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativeLane, promptedLane, type LaneStage } from '../../src/pipeline/stages.js';

const phaseOrder = { request: 0, upstream: 1, reply: 2 } as const;

describe.each([
  ['native', nativeLane],
  ['prompted', promptedLane],
] as [string, readonly LaneStage[]][])('the %s lane', (_lane, stages) => {
  it('names each stage once, with the file it lives in and why it sits there', () => {
    expect(new Set(stages.map((stage) => stage.name)).size).toBe(stages.length);
    for (const stage of stages) {
      expect(existsSync(`src/${stage.file}`), stage.file).toBe(true);
      expect(stage.why.length).toBeGreaterThan(20);
    }
  });

  it('runs request stages, then the upstream call, then the reply stages', () => {
    const phases = stages.map((stage) => phaseOrder[stage.phase]);
    expect(phases).toEqual([...phases].sort((left, right) => left - right));
    expect(stages.filter((stage) => stage.phase === 'upstream').map((stage) => stage.name)).toEqual(['call-upstream']);
  });

  it('applies the agent format and then finalize last of its own stages, before the run tail (cap, tap)', () => {
    const applied = stages.filter((stage) => 'apply' in stage).map((stage) => stage.name);
    expect(applied.slice(-2)).toEqual(['agent-format-reply', 'finalize']);
    expect(stages.slice(-2).map((stage) => stage.name)).toEqual(['cap-whole-reply', 'tap-reply']);
  });
});
