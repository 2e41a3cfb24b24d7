/** Two fixed workloads that say how fast this host is, printed beside the parser rows so that figures from two machines compare. */
// The streaming goal is an absolute MB/s, and the shared machines the bench runs on differ (and drift)
// by more than the margins the slow rows miss it by. These are the same code on every run: the chunk
// loop's own floor, and the native JSON parse every JSON-bodied call pays.
import type { ParsedEvent, ToolCallParser } from '../src/core/index.js';

/** Hands each chunk back as one text event: the cost of the bench's loop and of the events alone. */
export class PassThroughParser implements ToolCallParser {
  push(text: string): ParsedEvent[] {
    return [{ type: 'text', text }];
  }

  finish(): ParsedEvent[] {
    return [];
  }
}

export type HostReference = {
  /** The pass-through parser in the bench's own streaming loop, per push. */
  passThroughNanosecondsPerPush: number;
  /** `JSON.parse` of one small Hermes call body. */
  jsonParseNanoseconds: number;
};

const callJson = '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}';
const parses = 100_000;

/** The least CPU time (ms) of `runs` runs of `run`: the host's speed with the least of its neighbours' interference. */
export function bestCpuTime(runs: number, run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** `JSON.parse` of a small call, in nanoseconds: the best of ten batches, after three to warm up. */
export function measureJsonParse(bestTime: (runs: number, run: () => unknown) => number): number {
  const parseCalls = () => {
    let days = 0;
    for (let index = 0; index < parses; index++) days += (JSON.parse(callJson) as { arguments: { days: number } }).arguments.days;
    return days;
  };
  bestTime(3, parseCalls);
  return Math.round((bestTime(10, parseCalls) * 1_000_000) / parses);
}

export function hostReferenceLine(reference: HostReference, goalMegabytesPerSecond: number, chunkSize: number): string {
  const allowed = Math.round((chunkSize * 1000) / goalMegabytesPerSecond);
  return (
    `host reference: a pass-through parser takes ${reference.passThroughNanosecondsPerPush} ns per ${chunkSize}-byte push ` +
    `(${goalMegabytesPerSecond} MB/s allows ${allowed} ns); JSON.parse of a ${callJson.length}-character call takes ` +
    `${reference.jsonParseNanoseconds} ns`
  );
}
