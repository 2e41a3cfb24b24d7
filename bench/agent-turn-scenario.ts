/**
 * The agent-turn scenario: a Claude Code-sized request (bench/agent-turn-request.ts, about 150 KB) with
 * a 1,000-chunk streamed reply, one stream at a time, through the bare proxy and the gateway's two
 * lanes. Reported as CPU per request, the gateway's over the bare proxy's: what an agent's turn costs
 * beyond moving its bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentTurnRequestBody } from './agent-turn-request.js';
import type { BenchSettings } from './bench-settings.js';
import { ChildProcesses } from './child-processes.js';
import { spawnGateway, spawnServerProcess } from './child-servers.js';
import { createPool, type MeasuredProcess } from './contenders.js';
import { cpuDuring } from './cpu-during.js';
import { agentTurnReplyChunkCount } from './fake-replies.js';
import { gatewayModels, nativeModel, writeGatewayConfig } from './gateway-config.js';
import { renderMarkdownTable } from './markdown-table.js';
import type { Progress } from './progress.js';
import { alternateRounds } from './round-robin.js';
import { median } from './statistics.js';
import { measureStreams } from './stream-load.js';

export type AgentTurnFigures = {
  contender: string;
  requestBytes: number;
  requests: number;
  errors: number;
  cpuUsPerRequest: number;
  overBareProxy: number;
};

type Unit = { name: string; process: MeasuredProcess; pool: ReturnType<typeof createPool>; path: string; body: Buffer };

async function measure(units: Unit[], settings: BenchSettings): Promise<AgentTurnFigures[]> {
  const window = (unit: Unit, durationMs: number) =>
    cpuDuring(unit.process, () =>
      measureStreams({
        dispatcher: unit.pool,
        path: unit.path,
        body: unit.body,
        streams: 1,
        durationMs,
        chunksPerReply: agentTurnReplyChunkCount,
      }),
    );
  const rounds = await alternateRounds(
    units,
    settings.rounds,
    (unit) => window(unit, settings.warmupMs),
    (unit) => window(unit, settings.windowMs * 2),
  );
  const perRequest = rounds.map((results) => median(results.map((result) => (result.cpuMs * 1000) / Math.max(1, result.completed))));
  const bare = perRequest[0]!;
  return units.map((unit, index) => ({
    contender: unit.name,
    requestBytes: unit.body.length,
    requests: rounds[index]!.reduce((sum, result) => sum + result.completed, 0),
    errors: rounds[index]!.reduce((sum, result) => sum + result.errors, 0),
    cpuUsPerRequest: perRequest[index]!,
    overBareProxy: perRequest[index]! / bare,
  }));
}

/** Starts its own fake upstream, bare proxy and gateway, so it can run alone (`npm run bench -- --agent-turn`) or after the suite. */
export async function runAgentTurnScenario(settings: BenchSettings, progress: Progress): Promise<AgentTurnFigures[]> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-agent-'));
  const children = new ChildProcesses();
  try {
    progress('agent turn: starting the fake upstream, the bare proxy and the gateway');
    const upstream = await children.add(spawnServerProcess('fake-upstream'));
    const bareProxy = await children.add(spawnServerProcess('bare-proxy', upstream.url));
    const gateway = await children.add(
      spawnGateway({
        configPath: writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, settings.gatewayLogLevel),
        logPath: path.join(directory, 'gateway.log'),
      }),
    );
    const gatewayPath = '/v1/chat/completions';
    const units: Unit[] = [
      {
        name: 'bare proxy',
        process: bareProxy,
        pool: createPool(bareProxy.url),
        path: '/chunks-1000/v1/chat/completions',
        body: agentTurnRequestBody(nativeModel),
      },
      {
        name: 'gateway native',
        process: gateway,
        pool: createPool(gateway.url),
        path: gatewayPath,
        body: agentTurnRequestBody(gatewayModels.nativeAgentTurn),
      },
      {
        name: 'gateway prompted',
        process: gateway,
        pool: createPool(gateway.url),
        path: gatewayPath,
        body: agentTurnRequestBody(gatewayModels.promptedAgentTurn),
      },
    ];
    progress(
      `agent turn (${Math.round(units[0]!.body.length / 1024)} KB request, ${agentTurnReplyChunkCount}-chunk reply, 1 stream): ${units.map((unit) => unit.name).join(', ')}`,
    );
    try {
      return await measure(units, settings);
    } finally {
      await Promise.all(units.map((unit) => unit.pool.destroy()));
    }
  } finally {
    await children.stopAll();
    rmSync(directory, { recursive: true, force: true });
  }
}

export function renderAgentTurnSection(figures: AgentTurnFigures[]): string {
  const table = renderMarkdownTable(
    ['Contender', 'Request KB', 'Requests', 'CPU µs/request', 'CPU × bare proxy', 'Errors'],
    figures.map((row) => [
      row.contender,
      String(Math.round(row.requestBytes / 1024)),
      String(row.requests),
      Math.round(row.cpuUsPerRequest).toLocaleString('en-US'),
      `${row.overBareProxy.toFixed(2)} ×`,
      String(row.errors),
    ]),
  );
  return `## Agent turn (bench/agent-turn-scenario.ts: 24 tools, 15 KB system prompt, 22 tool-call turns of history; ${agentTurnReplyChunkCount}-chunk streamed reply; 1 stream)\n\n${table}\n`;
}
