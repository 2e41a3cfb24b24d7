/**
 * `npm run bench:files-on-path`: how many of the gateway's own files (`src/`, `routes/`, `providers/`,
 * `tool-formats/`) run for one request, by V8's precise coverage (function granularity), for the four
 * requests the bench measures: native and prompted, whole and streamed, one tool each, against the bench's
 * fake upstream on 127.0.0.1. The gateway is built in this process (coverage is per isolate); one warm-up
 * request of each kind runs first and the counters are reset after it, so start-up and first-use
 * compilation are not counted. `--list` prints the files too.
 *
 * Why: a request that crosses many files is hard to follow (docs/request-walkthrough.md keeps the count);
 * splitting a file into concepts and adding features both move it, and only a count says by how much.
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

type CoverageScript = { url: string; functions: { ranges: { count: number }[] }[] };

/** The gateway's own files in which any function ran since the counters were last reset. */
function filesThatRan(scripts: CoverageScript[]): string[] {
  const files: string[] = [];
  for (const script of scripts) {
    const file = ownFile.exec(script.url)?.[1];
    if (file && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) files.push(file);
  }
  return files.sort();
}

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
      await send(kind.model, kind.stream);
      // Taking the coverage resets the counters: what the next take reports ran after this point.
      await session.post('Profiler.takePreciseCoverage');
      await send(kind.model, kind.stream);
      const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: CoverageScript[] };
      const files = filesThatRan(result);
      rows.push([kind.name, String(files.length)]);
      lists.push(`### ${kind.name}\n\n${files.map((file) => `- ${file}`).join('\n')}`);
    }
    process.stdout.write(`${renderMarkdownTable(['Request', 'Files that ran'], rows)}\n`);
    if (process.argv.includes('--list')) process.stdout.write(`\n${lists.join('\n\n')}\n`);
  } finally {
    session.disconnect();
    await app.close();
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
