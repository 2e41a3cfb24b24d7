/** `npm run bench -- --lanes`: which checkouts it measures, what a quick run leaves out, and the side-by-side report. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineCommit } from '../../bench/baseline-checkout.js';
import { summariseRequests } from '../../bench/bench-figures.js';
import { readBenchSettings } from '../../bench/bench-settings.js';
import { repositoryRoot } from '../../bench/child-servers.js';
import { renderLanesReport } from '../../bench/lanes-report.js';
import { laneConnections, laneTrees, type LaneFigures } from '../../bench/lanes-suite.js';
import { readMachineInfo } from '../../bench/machine-info.js';

const quiet = () => {};

describe('laneTrees', () => {
  it('is this checkout alone with --no-baseline, and adds each --against directory in order', () => {
    expect(laneTrees(['node', 'run.ts', '--lanes', '--no-baseline'], quiet).map((tree) => tree.root)).toEqual([repositoryRoot]);
    const [first, second] = [mkdtempSync(path.join(os.tmpdir(), 'lanes-a-')), mkdtempSync(path.join(os.tmpdir(), 'lanes-b-'))];
    const trees = laneTrees(['node', 'run.ts', '--lanes', '--against', first, '--against', second], quiet);
    expect(trees.map((tree) => tree.root)).toEqual([repositoryRoot, first, second]);
    expect(trees[0]!.label).toBe('this tree');
  });

  it('names a baseline commit, and refuses --against without a checkout', () => {
    expect(baselineCommit).toMatch(/^[0-9a-f]{7,40}$/);
    expect(() => laneTrees(['--lanes', '--against'], quiet)).toThrow(/needs a checkout directory/);
    expect(() => laneTrees(['--against', '--lanes'], quiet)).toThrow(/needs a checkout directory/);
  });
});

describe('BENCH_QUICK=1', () => {
  it('leaves out the widest loads that the full run measures', () => {
    const full = readBenchSettings({});
    const quick = readBenchSettings({ BENCH_QUICK: '1' });
    expect(Math.max(...quick.connections)).toBeLessThan(Math.max(...full.connections));
    expect(Math.max(...quick.streams)).toBeLessThan(Math.max(...full.streams));
    expect(Math.max(...quick.idleStreamCounts)).toBeLessThan(Math.max(...full.idleStreamCounts));
    expect(quick.windowMs).toBeLessThan(full.windowMs);
  });
});

describe('renderLanesReport', () => {
  it('gives each lane and connection count a row, and this tree over the other as a CPU ratio', () => {
    const round = (cpuMs: number) => ({ requests: 100, errors: 0, elapsedMs: 1000, requestsPerSecond: 100, p50Ms: 1, p99Ms: 2, cpuMs });
    const requests = ['this tree', 'abc1234'].flatMap((label, tree) =>
      ['gateway native', 'gateway prompted'].flatMap((lane) =>
        laneConnections.map((connections) => summariseRequests(`${lane} @ ${label}`, connections, 1, [round(tree === 0 ? 30 : 20)])),
      ),
    );
    const figures: LaneFigures = {
      trees: [
        { label: 'this tree', root: '/here', commit: 'def5678' },
        { label: 'abc1234', root: '/there', commit: 'abc1234' },
      ],
      requests,
      notes: [],
      loadAverage: { before: '1.00 1.00 1.00', after: '2.00 2.00 2.00' },
      jsonParseNanoseconds: { before: 550, after: 560 },
      rounds: 1,
      windowMs: 1000,
    };
    const report = renderLanesReport(readMachineInfo(), figures);
    const rows = report.split('\n').filter((line) => /^\| (native|prompted) +\| +\d/.test(line));
    expect(rows).toHaveLength(2 * laneConnections.length);
    // 30 ms of CPU over 100 requests is 300 µs a request, against 200 µs: 1.50 ×, by paired rounds and by minimums.
    for (const row of rows) expect(row).toMatch(/1\.50 × \| +1\.50 × \| +200 \| +300 \|$/);
    expect(report).toContain('| native @ this tree ');
    expect(report).toContain('small call 550 ns before, 560 ns after');
    expect(report).toContain('1.00 1.00 1.00 before, 2.00 2.00 2.00 after');
  });
});
