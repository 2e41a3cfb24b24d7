/** Tool-call parser micro-benchmarks: MB/s per family, whole and in 4-byte chunks, and 10 MB / 1 MB time ratios. */
// Standalone: `node --import tsx bench/parsers.ts`, which also prints a PASS/FAIL line per parser for the
// speed goals (`parser-speed-check.ts`) and exits 1 when one fails. Every family of the registry is
// measured, plus a reply that begins inside reasoning and never closes it (read twice: as reasoning, then
// as the reply). `--family hermes,step3` (or `PARSER_BENCH_FAMILIES=hermes,step3`) measures only those rows;
// the reply that begins inside reasoning is the row `hermes-unclosed-reasoning`. Each row is measured in its
// own process unless `--one-process` is given, three times over in rounds (`--forks N`): see runParserBenchmarks.
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParserOptions, ToolCallParser, ToolDefinition, ToolFormat } from '../src/core/index.js';
import { createToolFormatRegistry } from '../tool-formats/index.js';
import { childRowRequest, measureInChildProcess, writeChildRow } from './measure-in-child-process.js';
import { forksFrom, medianOfForks } from './fork-median.js';
import { bestCpuTime, hostReferenceLine, measureJsonParse, PassThroughParser, type HostReference } from './host-reference.js';
import { checkParser, parserCheckReport, streamMegabytesPerSecondGoal } from './parser-speed-check.js';

export type Row = {
  family: string;
  /** Megabytes (10^6 UTF-16 code units, ~bytes for this mostly-ASCII text) per second. */
  wholeMegabytesPerSecond: number;
  streamMegabytesPerSecond: number;
  /** The streamed MB/s of the processes that measured the row, lowest–highest (see fork-median.ts). */
  streamRange: string;
  /** Streaming time for 10 MB divided by streaming time for 1 MB. */
  streamTenToOneRatio: number;
  wholeTenToOneRatio: number;
  /** Calls parsed from the 1 MB reply (a sanity check that the benchmark parses something). */
  calls: number;
  /** The speed goals (see parser-speed-check.ts). */
  check: 'pass' | 'FAIL';
};

/** A parser to measure: a family's, or one of them under particular options; `key` selects it by name. */
type Subject = {
  key: string;
  name: string;
  format: ToolFormat;
  options: ParserOptions;
  build: (targetLength: number) => string;
};

const megabyte = 1_000_000;
const benchModulePath = fileURLToPath(import.meta.url);
const chunkSize = 4;

const tools: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Get the weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
  },
  {
    name: 'write_file',
    description: 'Write a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
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
                  arguments: JSON.stringify({
                    path: `src/file-${index}.ts`,
                    content: 'export const answer = "</tool_call>";\nconsole.log(`x < y`);\n'.repeat(4),
                  }),
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

function parseWhole(subject: Subject, text: string): number {
  const parser = subject.format.createParser(tools, subject.options);
  return [...parser.push(text), ...parser.finish()].filter((event) => event.type === 'tool-call').length;
}

function parseStream(subject: Subject, chunks: readonly string[]): number {
  return streamThrough(subject.format.createParser(tools, subject.options), chunks);
}

/** The streaming loop of every row (and of the host reference's pass-through parser). */
function streamThrough(parser: ToolCallParser, chunks: readonly string[]): number {
  let calls = 0;
  for (const chunk of chunks) for (const event of parser.push(chunk)) if (event.type === 'tool-call') calls++;
  for (const event of parser.finish()) if (event.type === 'tool-call') calls++;
  return calls;
}

function subjects(): Subject[] {
  const registry = createToolFormatRegistry();
  const families: Subject[] = [...registry.values()].map((format) => ({
    key: format.family,
    name: format.family,
    format,
    options: {},
    build: (length) => buildReply(format, length),
  }));
  const hermes = registry.get('hermes');
  if (hermes === undefined) return families;
  return [
    ...families,
    {
      key: 'hermes-unclosed-reasoning',
      name: 'hermes, unclosed opened reasoning',
      format: hermes,
      options: { startsInReasoning: true },
      build: (length) => buildReply(hermes, length),
    },
  ];
}

/** The subjects named in `families` (all of them when it is empty); an unknown name is an error, not a silent empty run. */
function selectSubjects(families: readonly string[]): Subject[] {
  const all = subjects();
  if (families.length === 0) return all;
  const known = new Set(all.map((subject) => subject.key));
  const unknown = families.filter((family) => !known.has(family));
  if (unknown.length > 0) throw new Error(`unknown parser bench families: ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  return all.filter((subject) => families.includes(subject.key));
}

/** The family filter from `--family a,b` (or `--family=a,b`) or else `PARSER_BENCH_FAMILIES=a,b`. */
export function familyFilter(argv: readonly string[], environment: NodeJS.ProcessEnv): string[] {
  const flagIndex = argv.findIndex((argument) => argument === '--family' || argument.startsWith('--family='));
  const flag = argv[flagIndex];
  const value =
    flag === undefined
      ? environment['PARSER_BENCH_FAMILIES']
      : flag.startsWith('--family=')
        ? flag.slice('--family='.length)
        : argv[flagIndex + 1];
  return (value ?? '')
    .split(',')
    .map((family) => family.trim())
    .filter((family) => family.length > 0);
}

/** How the rows are measured: each parser in a fresh process (the default), or all in this one. */
export type BenchIsolation = 'process-per-parser' | 'one-process';

/**
 * Every parser is measured in its own fresh Node process by default, as JMH forks a JVM per benchmark:
 * otherwise a row's figure depends on which families ran before it in the same process (the shared
 * scanner and grammar code the JIT specialised for them goes megamorphic: the last rows of a 53-family
 * run measured up to 1.5x slower than the same parser alone). `--one-process` measures them all in this
 * process, one after another: the pessimistic figure of a gateway whose clients use every family at once.
 *
 * The processes go round the rows: each round measures every row once, so a row's `forks` processes
 * are minutes apart rather than seconds. On a shared machine the host's own speed drifts over minutes
 * (`JSON.parse` of the host reference measured 1.5x apart a quarter of an hour apart), and a row whose
 * processes all ran in one slow spell would report that spell, not the parser.
 */
export async function runParserBenchmarks(
  families: readonly string[] = familyFilter([], process.env),
  isolation: BenchIsolation = isolationFrom(process.argv.slice(2)),
  forks: number = forksFrom(process.argv.slice(2)),
): Promise<Row[]> {
  const selected = selectSubjects(families);
  if (isolation === 'one-process') return selected.map((subject) => measureSubject(subject));
  const measured: Row[][] = selected.map(() => []);
  for (let round = 0; round < forks; round++) {
    for (const [index, subject] of selected.entries()) {
      measured[index]?.push(await measureInChildProcess<Row>(benchModulePath, subject.key));
    }
  }
  return measured.map((rows) => withMedianOfForks(rows));
}

/** `--one-process` measures every parser in this process; otherwise each gets its own. */
export function isolationFrom(argv: readonly string[]): BenchIsolation {
  return argv.includes('--one-process') ? 'one-process' : 'process-per-parser';
}

/** The 1 MB speeds. */
function measureSpeed(subject: Subject, small: string, smallChunks: readonly string[]) {
  const calls = parseWhole(subject, small);
  if (parseStream(subject, smallChunks) !== calls) throw new Error(`${subject.name}: streaming and whole parses disagree`);
  // Warm the JIT on both paths before timing.
  bestCpuTime(3, () => parseWhole(subject, small));
  bestCpuTime(3, () => parseStream(subject, smallChunks));
  const wholeSmall = bestCpuTime(10, () => parseWhole(subject, small));
  const streamSmall = bestCpuTime(10, () => parseStream(subject, smallChunks));
  return {
    calls,
    wholeMegabytesPerSecond: round(small.length / megabyte / (wholeSmall / 1000)),
    streamMegabytesPerSecond: round(small.length / megabyte / (streamSmall / 1000)),
  };
}

/** How many times each size is timed for a 10 MB / 1 MB ratio. */
const ratioRuns = 3;

/**
 * The best 10 MB time over the best 1 MB time, the two timed alternately the same number of times. Not
 * over the speed's best of ten 1 MB runs: on a busy host one process's 1 MB whole parses spread from 12
 * to 36 ms, so a best of ten beats a best of three by chance alone, and linear whole parses read 20 to 25
 * against it (6 to 16 alternated, in the same processes). Alternating, each 1 MB run also follows a 10 MB
 * one, with the collector's work and the host's cache as the next 10 MB run finds them.
 */
function tenToOneRatio(parseSmall: () => unknown, parseLarge: () => unknown): number {
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let run = 0; run < ratioRuns; run++) {
    large = Math.min(large, bestCpuTime(1, parseLarge));
    small = Math.min(small, bestCpuTime(1, parseSmall));
  }
  return round(large / small);
}

function measureSubject(subject: Subject): Row {
  const small = subject.build(megabyte);
  const large = subject.build(10 * megabyte);
  const smallChunks = splitIntoChunks(small);
  const largeChunks = splitIntoChunks(large);
  const speed = measureSpeed(subject, small, smallChunks);
  return withCheck({
    family: subject.name,
    wholeMegabytesPerSecond: speed.wholeMegabytesPerSecond,
    streamMegabytesPerSecond: speed.streamMegabytesPerSecond,
    streamRange: String(speed.streamMegabytesPerSecond),
    streamTenToOneRatio: tenToOneRatio(
      () => parseStream(subject, smallChunks),
      () => parseStream(subject, largeChunks),
    ),
    wholeTenToOneRatio: tenToOneRatio(
      () => parseWhole(subject, small),
      () => parseWhole(subject, large),
    ),
    calls: speed.calls,
  });
}

function withCheck(measured: Omit<Row, 'check'>): Row {
  return { ...measured, check: checkParser(measured).pass ? 'pass' : 'FAIL' };
}

/** A row measured in several fresh processes: its figures are the median (see fork-median.ts). */
function withMedianOfForks(rows: readonly Row[]): Row {
  const [first] = rows as [Row];
  const { check: _check, ...measured } = first;
  return withCheck({ ...measured, ...medianOfForks(rows) });
}

/** The host's figures (see host-reference.ts), with the bench's own reply, chunking and loop. */
function measureHostReference(): HostReference {
  const hermes = createToolFormatRegistry().get('hermes');
  if (hermes === undefined) throw new Error('the host reference reads the hermes bench reply');
  const chunks = splitIntoChunks(buildReply(hermes, megabyte));
  const passThrough = () => streamThrough(new PassThroughParser(), chunks);
  bestCpuTime(3, passThrough);
  return {
    passThroughNanosecondsPerPush: Math.round((bestCpuTime(10, passThrough) * 1_000_000) / chunks.length),
    jsonParseNanoseconds: measureJsonParse(bestCpuTime),
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const measureOne = childRowRequest(process.argv.slice(2));
  if (measureOne !== undefined) {
    // A child of measureInChildProcess: one row, as JSON, on stdout.
    const [subject] = selectSubjects([measureOne]);
    if (subject !== undefined) writeChildRow(measureSubject(subject));
  } else {
    // No top-level await: the module is also loaded by CommonJS-transpiled callers.
    runParserBenchmarks(familyFilter(process.argv.slice(2), process.env)).then(
      (rows) => {
        console.table(rows);
        const report = parserCheckReport(rows);
        for (const line of report.lines) console.log(line);
        console.log(hostReferenceLine(measureHostReference(), streamMegabytesPerSecondGoal, chunkSize));
        if (!report.pass) process.exitCode = 1;
      },
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
  }
}
