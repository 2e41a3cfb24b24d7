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
import { startFakeUpstream } from '../../bench/fake-upstream.js';
import { startFastifyFloor } from '../../bench/fastify-floor.js';
import { startTranslatingFloor } from '../../bench/translating-floor.js';
import { benchRequestBody } from '../../bench/bench-requests.js';
import { gatewayModels } from '../../bench/gateway-config.js';
import { request } from 'undici';

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

  it('gives the lanes many short rounds of their own, unless BENCH_ROUNDS and BENCH_WINDOW_MS say otherwise', () => {
    const full = readBenchSettings({});
    expect(full.laneRounds).toBeGreaterThan(full.rounds);
    expect(full.laneWindowMs).toBeLessThan(full.windowMs);
    const told = readBenchSettings({ BENCH_ROUNDS: '7', BENCH_WINDOW_MS: '900' });
    expect([told.rounds, told.laneRounds, told.windowMs, told.laneWindowMs]).toEqual([7, 7, 900, 900]);
  });
});

/** One round of 100 requests that took `cpuMs` of CPU. */
const round = (cpuMs: number) => ({ requests: 100, errors: 0, elapsedMs: 1000, requestsPerSecond: 100, p50Ms: 1, p99Ms: 2, cpuMs });

/** A one-round run of these rows, on a host whose load went from 1 to 2 and whose JSON.parse reference went from 550 to 560 ns. */
function laneFigures(trees: LaneFigures['trees'], requests: LaneFigures['requests']): LaneFigures {
  return {
    trees,
    requests,
    notes: [],
    loadAverage: { before: '1.00 1.00 1.00', after: '2.00 2.00 2.00' },
    jsonParseNanoseconds: { before: 550, after: 560 },
    rounds: 1,
    windowMs: 1000,
  };
}

describe('renderLanesReport', () => {
  it('gives each lane and connection count a row, and this tree over the other as a CPU ratio', () => {
    const requests = ['this tree', 'abc1234'].flatMap((label, tree) =>
      ['gateway native', 'gateway prompted'].flatMap((lane) =>
        laneConnections.map((connections) => summariseRequests(`${lane} @ ${label}`, connections, 1, [round(tree === 0 ? 30 : 20)])),
      ),
    );
    const trees = [
      { label: 'this tree', root: '/here', commit: 'def5678' },
      { label: 'abc1234', root: '/there', commit: 'abc1234' },
    ];
    const report = renderLanesReport(readMachineInfo(), laneFigures(trees, requests));
    const rows = report.split('\n').filter((line) => /^\| (native|prompted) +\| +\d/.test(line));
    expect(rows).toHaveLength(2 * laneConnections.length);
    // 30 ms of CPU over 100 requests is 300 µs a request, against 200 µs: 1.50 ×, by paired rounds and by minimums.
    for (const row of rows) expect(row).toMatch(/1\.50 × \| +1\.50 × \| +200 \| +300 \|$/);
    expect(report).toContain('| native @ this tree ');
    expect(report).toContain('small call 550 ns before, 560 ns after');
    expect(report).toContain('1.00 1.00 1.00 before, 2.00 2.00 2.00 after');
  });
});

describe.each([
  { name: 'the fastify floor', start: startFastifyFloor },
  { name: 'the translating floor', start: startTranslatingFloor },
])('$name', ({ start }) => {
  it('answers the native lane request with the upstream call, rebuilt as a chat.completion with the model asked for', async () => {
    const upstream = await startFakeUpstream();
    const floor = await start(upstream.url);
    try {
      const body = benchRequestBody({ model: gatewayModels.native, stream: false });
      const response = await request(`${floor.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const completion = (await response.body.json()) as {
        object: string;
        model: string;
        choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
      };
      expect(response.statusCode).toBe(200);
      expect(completion.object).toBe('chat.completion');
      expect(completion.model).toBe(gatewayModels.native);
      expect(completion.choices[0]?.message.tool_calls[0]?.function.name).toBe('get_weather');
    } finally {
      await floor.close();
      await upstream.close();
    }
  });
});

describe('the floors in the lanes report', () => {
  it('are rows of it, and each lane is also given over the fastify floor', () => {
    const requests = laneConnections.flatMap((connections) => [
      summariseRequests('bare proxy', connections, 1, [round(10)]),
      summariseRequests('translating floor', connections, 1, [round(11)]),
      summariseRequests('fastify floor', connections, 1, [round(12)]),
      summariseRequests('gateway native @ this tree', connections, 1, [round(18)]),
      summariseRequests('gateway prompted @ this tree', connections, 1, [round(24)]),
    ]);
    const report = renderLanesReport(readMachineInfo(), laneFigures([{ label: 'this tree', root: '/here', commit: 'def5678' }], requests));
    const floorRows = report.split('\n').filter((line) => line.startsWith('| fastify floor '));
    expect(floorRows).toHaveLength(laneConnections.length);
    for (const row of floorRows) expect(row).toMatch(/\| +1\.20 × \| +\|$/);
    const translatingRows = report.split('\n').filter((line) => line.startsWith('| translating floor '));
    expect(translatingRows).toHaveLength(laneConnections.length);
    for (const row of translatingRows) expect(row).toMatch(/\| +1\.10 × \| +\|$/);
    // 180 and 240 µs a request over the floor's 120: 1.50 × and 2.00 ×, beside 1.80 × and 2.40 × the bare proxy.
    const nativeRows = report.split('\n').filter((line) => line.startsWith('| native @ this tree '));
    for (const row of nativeRows) expect(row).toMatch(/\| +1\.80 × \| +1\.50 × \|$/);
    const promptedRows = report.split('\n').filter((line) => line.startsWith('| prompted @ this tree '));
    for (const row of promptedRows) expect(row).toMatch(/\| +2\.40 × \| +2\.00 × \|$/);
  });
});
