/** Tool-call parser micro-benchmarks: MB/s per family, whole and in 4-byte chunks, and 10 MB / 1 MB time ratios. */
// Standalone: `node --import tsx bench/parsers.ts`.
import { pathToFileURL } from 'node:url';
import type { ToolDefinition, ToolFormat } from '../src/core/index.js';
import { createToolFormatRegistry } from '../tool-formats/index.js';

export type Row = {
  family: string;
  /** Megabytes (10^6 UTF-16 code units, ~bytes for this mostly-ASCII text) per second. */
  wholeMegabytesPerSecond: number;
  streamMegabytesPerSecond: number;
  /** Streaming time for 10 MB divided by streaming time for 1 MB. */
  streamTenToOneRatio: number;
  wholeTenToOneRatio: number;
  /** Calls parsed from the 1 MB reply (a sanity check that the benchmark parses something). */
  calls: number;
};

const megabyte = 1_000_000;
const chunkSize = 4;

const tools: ToolDefinition[] = [
  { name: 'get_weather', description: 'Get the weather.', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
  { name: 'write_file', description: 'Write a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
];

/** How each family's calls appear in the middle of prose. */
const callWrappers: Record<string, (call: string) => string> = {
  hermes: (call) => call,
  'generic-json': (call) => call,
  llama3: (call) => `<|python_tag|>${call}`,
  pythonic: (call) => `<|tool_call_start|>${call}<|tool_call_end|>`,
  // Granite's calls run to the end of the reply, so prose after one would be read as part of it; the
  // closers both families also accept keep the prose text, as in the other families' replies.
  granite: (call) => `${call}</|tool_call|>`,
  'granite-20b-fc': (call) => `${call}</function_call>`,
};

const prose = [
  'The forecast says rain in the afternoon, so take an umbrella if a < b and the wind is > 20 km/h.\n',
  'Here is some `inline code` and a <b>bold</b> remark; prices went up 3 <| 4 percent — naïve café ☕ résumé.\n',
  'Then I will check the file and report back with a summary of what changed since yesterday.\n\n',
];

export function buildReply(format: ToolFormat, targetLength: number): string {
  const wrap = callWrappers[format.family] ?? ((call: string) => call);
  const pieces: string[] = [];
  let length = 0;
  for (let index = 0; length < targetLength; index++) {
    const piece =
      index % 4 === 3
        ? wrap(
            index % 8 === 3
              ? format.renderCall({ name: 'get_weather', arguments: JSON.stringify({ city: `City ${index}`, days: index % 7 }) })
              : format.renderCall({
                  name: 'write_file',
                  arguments: JSON.stringify({ path: `src/file-${index}.ts`, content: 'export const answer = "</tool_call>";\nconsole.log(`x < y`);\n'.repeat(4) }),
                }),
          ) + '\n'
        : (prose[index % prose.length] as string);
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join('');
}

function splitIntoChunks(text: string): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += chunkSize) chunks.push(text.slice(index, index + chunkSize));
  return chunks;
}

function parseWhole(format: ToolFormat, text: string): number {
  const parser = format.createParser(tools);
  return [...parser.push(text), ...parser.finish()].filter((event) => event.type === 'tool-call').length;
}

function parseStream(format: ToolFormat, chunks: readonly string[]): number {
  const parser = format.createParser(tools);
  let calls = 0;
  for (const chunk of chunks) for (const event of parser.push(chunk)) if (event.type === 'tool-call') calls++;
  for (const event of parser.finish()) if (event.type === 'tool-call') calls++;
  return calls;
}

/**
 * The best of `runs` timings in milliseconds of this process's CPU time: on a shared machine, wall
 * time mostly measures the neighbours. The best run is the one least disturbed by GC.
 */
function bestTime(runs: number, run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

export async function runParserBenchmarks(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const format of createToolFormatRegistry().values()) {
    const small = buildReply(format, megabyte);
    const large = buildReply(format, 10 * megabyte);
    const smallChunks = splitIntoChunks(small);
    const largeChunks = splitIntoChunks(large);
    const calls = parseWhole(format, small);
    if (parseStream(format, smallChunks) !== calls) throw new Error(`${format.family}: streaming and whole parses disagree`);
    // Warm the JIT on both paths before timing.
    bestTime(3, () => parseWhole(format, small));
    bestTime(3, () => parseStream(format, smallChunks));
    const wholeSmall = bestTime(10, () => parseWhole(format, small));
    const streamSmall = bestTime(10, () => parseStream(format, smallChunks));
    const wholeLarge = bestTime(3, () => parseWhole(format, large));
    const streamLarge = bestTime(3, () => parseStream(format, largeChunks));
    rows.push({
      family: format.family,
      wholeMegabytesPerSecond: round(small.length / megabyte / (wholeSmall / 1000)),
      streamMegabytesPerSecond: round(small.length / megabyte / (streamSmall / 1000)),
      streamTenToOneRatio: round(streamLarge / streamSmall),
      wholeTenToOneRatio: round(wholeLarge / wholeSmall),
      calls,
    });
    // Let the event loop breathe between families.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // No top-level await: the module is also loaded by CommonJS-transpiled callers.
  runParserBenchmarks().then(
    (rows) => console.table(rows),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
