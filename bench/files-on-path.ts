/**
 * `npm run bench:files-on-path`: how many of the gateway's own files (`src/`, `routes/`, `providers/`,
 * `tool-formats/`) run for one request, by V8's precise coverage (function granularity), for the four
 * requests the bench measures: native and prompted, whole and streamed, one tool each, against the bench's
 * fake upstream on 127.0.0.1. The gateway is built in this process (coverage is per isolate); twenty warm-up
 * requests of each kind run first and the counters are reset after it, so start-up and first-use
 * compilation are not counted. Beside the files, the functions of those files that ran and how often
 * they were called (a module's top level, run once at import, is not counted). `--list` prints the files
 * too, each with its functions and calls.
 *
 * Why: a request that crosses many files is hard to follow (docs/request-walkthrough.md keeps the count);
 * splitting a file into concepts and adding features both move it, and only a count says by how much.
 * The functions count the code a request walks, which is what its cost follows (docs/performance.md, the
 * fifth and thirteenth sessions: the same work spread over more distinct code costs more time).
 */
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { request } from 'undici';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/load-config.js';
import { benchRequestBody } from './bench-requests.js';
import { startFakeUpstream } from './fake-upstream.js';
import { gatewayModels, writeGatewayConfig } from './gateway-config.js';
import { renderMarkdownTable } from './markdown-table.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ownFile = new RegExp(`^file://${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}((?:src|routes|providers|tool-formats)/.+\\.ts)$`);

type CoverageScript = { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] };

/** One file that ran: its functions that were called and their calls since the counters were last reset. */
type FileThatRan = { file: string; functions: number; calls: number };

/**
 * The gateway's own files in which any function ran, busiest first. A function's first range is its
 * whole body, counted per call; the range at offset 0 is the module's top level, which ran at import.
 */
function filesThatRan(scripts: CoverageScript[]): FileThatRan[] {
  const files: FileThatRan[] = [];
  for (const script of scripts) {
    const file = ownFile.exec(script.url)?.[1];
    if (!file) continue;
    let functions = 0;
    let calls = 0;
    for (const fn of script.functions) {
      const body = fn.ranges[0];
      if (body === undefined || body.startOffset === 0 || body.count === 0) continue;
      functions++;
      calls += body.count;
    }
    if (functions > 0) files.push({ file, functions, calls });
  }
  return files.sort((left, right) => right.calls - left.calls || left.file.localeCompare(right.file));
}

function sumOf(files: FileThatRan[], count: (file: FileThatRan) => number): number {
  return files.reduce((total, file) => total + count(file), 0);
}

/**
 * Requests of a kind sent before the counted one: caches filled on a kind's first requests (a tool list
 * seen twice, a memo's second hit) would otherwise count as the plain path's.
 */
const warmUpRequests = 20;

const requestKinds = [
  { name: 'native, whole', model: gatewayModels.native, stream: false },
  { name: 'native, streamed', model: gatewayModels.nativeStream, stream: true },
  { name: 'prompted, whole', model: gatewayModels.prompted, stream: false },
  { name: 'prompted, streamed', model: gatewayModels.promptedStream, stream: true },
];

async function main(): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-files-on-path-'));
  const upstream = await startFakeUpstream();
  const configPath = writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, 'info');
  const { config } = await loadConfig({ path: configPath, environment: {}, overrides: { host: '127.0.0.1', port: 0 } });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }), environment: {}, detectServers: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const send = async (model: string, stream: boolean) => {
      const response = await request(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: benchRequestBody({ model, stream, toolCount: 1 }),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${model}: ${response.statusCode} ${text}`);
    };
    const rows: string[][] = [];
    const lists: string[] = [];
    for (const kind of requestKinds) {
      for (let round = 0; round < warmUpRequests; round++) await send(kind.model, kind.stream);
      // Taking the coverage resets the counters: what the next take reports ran after this point.
      await session.post('Profiler.takePreciseCoverage');
      await send(kind.model, kind.stream);
      const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: CoverageScript[] };
      const files = filesThatRan(result);
      rows.push([
        kind.name,
        String(files.length),
        String(sumOf(files, (file) => file.functions)),
        String(sumOf(files, (file) => file.calls)),
      ]);
      const listed = files.map((file) => `- ${file.file}: ${file.functions} functions, ${file.calls} calls`);
      lists.push(`### ${kind.name}\n\n${listed.join('\n')}`);
    }
    process.stdout.write(`${renderMarkdownTable(['Request', 'Files that ran', 'Functions', 'Calls'], rows)}\n`);
    if (process.argv.includes('--list')) process.stdout.write(`\n${lists.join('\n\n')}\n`);
  } finally {
    session.disconnect();
    await app.close();
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
