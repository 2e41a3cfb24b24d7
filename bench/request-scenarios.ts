/**
 * The non-streaming measurements: requests/s and latency at 1, 32 and 256 connections, and latency
 * at one connection as the request's tool list grows from 1 to 200 tools.
 */
import { benchRequestBody } from './bench-requests.js';
import { summariseRequests, type RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import type { Contender } from './contenders.js';
import { cpuDuring } from './cpu-during.js';
import { measureRequests } from './load-generator.js';
import type { Progress } from './progress.js';
import { alternateRounds } from './round-robin.js';

type Unit = { contender: Contender; tools: number; body: Buffer };

function unitsFor(contenders: Contender[], toolCounts: number[]): Unit[] {
  return toolCounts.flatMap((tools) =>
    contenders.map((contender) => ({ contender, tools, body: benchRequestBody({ model: contender.reply.model, stream: false, toolCount: tools }) })),
  );
}

async function measureUnits(units: Unit[], connections: number, settings: BenchSettings, windowMs: number): Promise<RequestFigures[]> {
  const window = (unit: Unit, durationMs: number) =>
    cpuDuring(unit.contender.process, () =>
      measureRequests({ dispatcher: unit.contender.pool, path: unit.contender.reply.path, body: unit.body, connections, durationMs }),
    );
  const rounds = await alternateRounds(units, settings.rounds, (unit) => window(unit, settings.warmupMs), (unit) => window(unit, windowMs));
  return units.map((unit, index) => summariseRequests(unit.contender.name, connections, unit.tools, rounds[index]!));
}

export async function runRequestScenario(contenders: Contender[], settings: BenchSettings, progress: Progress): Promise<RequestFigures[]> {
  const figures: RequestFigures[] = [];
  const units = unitsFor(contenders, [1]);
  for (const connections of settings.connections) {
    progress(`non-streaming, ${connections} connection(s): ${contenders.map((contender) => contender.name).join(', ')}`);
    figures.push(...(await measureUnits(units, connections, settings, settings.windowMs)));
  }
  return figures;
}

/** Each (contender, tool count) pair is its own unit, so the 200-tool and 1-tool windows alternate too. */
export async function runToolGrowthScenario(contenders: Contender[], settings: BenchSettings, progress: Progress): Promise<RequestFigures[]> {
  progress(`tool growth (${settings.toolCounts.join(', ')} tools, 1 connection): ${contenders.map((contender) => contender.name).join(', ')}`);
  return measureUnits(unitsFor(contenders, settings.toolCounts), 1, settings, settings.growthWindowMs);
}
