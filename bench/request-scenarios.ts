/**
 * The non-streaming measurements: requests/s and latency at 1, 32 and 256 connections, and latency
 * at one connection as the request's tool list grows from 1 to 200 tools, plus the largest list
 * changing on every request (what the gateway's reuse of a resent list cannot help).
 */
import { benchRequestBody, rotatingBenchBodies } from './bench-requests.js';
import { summariseRequests, type RequestFigures } from './bench-figures.js';
import type { BenchSettings } from './bench-settings.js';
import type { Contender } from './contenders.js';
import { cpuDuring } from './cpu-during.js';
import { measureRequests } from './load-generator.js';
import type { Progress } from './progress.js';
import { alternateRounds } from './round-robin.js';

type Unit = { contender: Contender; tools: number; body: Buffer | Buffer[]; toolLists?: number };

/** More lists than the gateway remembers (8), so none of them is ever reused. */
const rotatingToolLists = 32;

function unitsFor(contenders: Contender[], toolCounts: number[]): Unit[] {
  return toolCounts.flatMap((tools) =>
    contenders.map((contender) => ({
      contender,
      tools,
      body: benchRequestBody({ model: contender.reply.model, stream: false, toolCount: tools }),
    })),
  );
}

function rotatingUnitsFor(contenders: Contender[], tools: number): Unit[] {
  return contenders.map((contender) => ({
    contender,
    tools,
    body: rotatingBenchBodies({ model: contender.reply.model, stream: false, toolCount: tools }, rotatingToolLists),
    toolLists: rotatingToolLists,
  }));
}

async function measureUnits(units: Unit[], connections: number, settings: BenchSettings, windowMs: number): Promise<RequestFigures[]> {
  const window = (unit: Unit, durationMs: number) =>
    cpuDuring(unit.contender.process, () =>
      measureRequests({
        dispatcher: unit.contender.pool,
        path: unit.contender.reply.path,
        body: unit.body,
        connections,
        durationMs,
        ...(unit.contender.headers ? { headers: unit.contender.headers } : {}),
      }),
    );
  const rounds = await alternateRounds(
    units,
    settings.rounds,
    (unit) => window(unit, settings.warmupMs),
    (unit) => window(unit, windowMs),
  );
  return units.map((unit, index) => {
    const figures = summariseRequests(unit.contender.name, connections, unit.tools, rounds[index]!);
    return unit.toolLists === undefined ? figures : { ...figures, toolLists: unit.toolLists };
  });
}

/** `connectionCounts`: the settings' (1, 32, 256) unless a scenario measures fewer. */
export async function runRequestScenario(
  contenders: Contender[],
  settings: BenchSettings,
  progress: Progress,
  connectionCounts = settings.connections,
): Promise<RequestFigures[]> {
  const figures: RequestFigures[] = [];
  const units = unitsFor(contenders, [1]);
  for (const connections of connectionCounts) {
    progress(`non-streaming, ${connections} connection(s): ${contenders.map((contender) => contender.name).join(', ')}`);
    figures.push(...(await measureUnits(units, connections, settings, settings.windowMs)));
  }
  return figures;
}

/**
 * Each (contender, tool count) pair is its own unit, so the 200-tool and 1-tool windows alternate too;
 * the largest count is measured a second time with a different list on every request.
 */
export async function runToolGrowthScenario(
  contenders: Contender[],
  settings: BenchSettings,
  progress: Progress,
): Promise<RequestFigures[]> {
  const largest = Math.max(...settings.toolCounts);
  progress(
    `tool growth (${settings.toolCounts.join(', ')} tools, and ${largest} from ${rotatingToolLists} rotating lists, 1 connection): ${contenders.map((contender) => contender.name).join(', ')}`,
  );
  const units = [...unitsFor(contenders, settings.toolCounts), ...rotatingUnitsFor(contenders, largest)];
  return measureUnits(units, 1, settings, settings.growthWindowMs);
}
