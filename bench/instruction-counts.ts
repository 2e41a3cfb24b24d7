/**
 * `npm run bench -- --instructions [--against DIR|COMMIT|baseline]`: what one non-streaming request costs
 * the gateway in work done rather than in time, counted by valgrind (callgrind) so that a shared
 * machine's noise cannot move it: instructions, and the misses of a simulated cache (first level, and a
 * 1 MB last level standing for a core's own L2), per request, for this tree and each other one.
 *
 * Why: on these hosts the same tree's CPU per request moves by 1.5–2× between runs, so a loss of a few
 * per cent hides in time measurements. Counting is slow (valgrind runs the gateway ~50× slower; ~2
 * minutes per tree and lane) but repeats far better than time. All instructions together were up to 13 %
 * apart between runs of one tree, when V8 happened to optimise functions inside the counted window; so V8's
 * compiling and garbage collection are counted apart from the work (readCallgrindParts), which repeated
 * within about 2 %. Node runs with `--predictable` (no background compiler or GC threads, whose timing
 * would change what is counted) and keeps its bytecode, after a warm-up long enough that the code is
 * compiled; only the counted window is instrumented.
 *
 * What it cannot see: the kernel (syscalls: `strace -c` shows them), and time itself. Two trees that
 * execute the same instructions can still differ in CPU time through the memory they touch; the
 * simulated last-level misses are the footprint of code and data a request walks through.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { benchRequestBody } from './bench-requests.js';
import { freePort, spawnServerProcess, waitForHealth } from './child-servers.js';
import { recordFailure, type Failures } from './closed-loop.js';
import { gatewayModels, writeGatewayConfig } from './gateway-config.js';
import type { LaneTree } from './lanes-suite.js';
import { renderMarkdownTable } from './markdown-table.js';
import type { Progress } from './progress.js';

/** The events callgrind counts with its cache simulation, in the order of its `events:` line. */
export type CacheEvents = {
  /** Instructions executed. */
  Ir: number;
  /** First-level misses: instruction fetch, data read, data write. */
  I1mr: number;
  D1mr: number;
  D1mw: number;
  /** Last-level (here 1 MB) misses: instruction fetch, data read, data write. */
  ILmr: number;
  DLmr: number;
  DLmw: number;
};

const eventNames = ['Ir', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw'] as const;

/**
 * What one count sends, and what its figures are per: a lane's whole request (one tool, non-streaming), or
 * its streamed request (the fake upstream's 500 paced chunks, each its own read) counted per chunk, since a
 * long stream's cost is its chunks'.
 */
export type CountKind = {
  name: string;
  model: string;
  stream: boolean;
  /** What the figures are divided into: requests, or the chunks of each streamed request. */
  unit: 'request' | 'chunk';
  unitsPerRequest: number;
  /** Requests of warm-up before the counted window, and counted in it. */
  warmUpRequests: number;
  countedRequests: number;
  /** Requests sent at once. */
  connections: number;
};

/** The fake upstream's streamed reply for the `native-stream` and `prompted-stream` providers (bench/fake-upstream.ts). */
const chunksPerStream = 500;

/**
 * A stream request is some 500 chunks' work: fewer of them give the same warm-up and as many counted chunks
 * in all. Two at a time: eight streams at once under valgrind (some 20 s each) left a connection reset by
 * the gateway in the counted window.
 */
const streamedRequests = { warmUpRequests: 300, countedRequests: 120, connections: 2 };

export const wholeRequestKinds: readonly CountKind[] = (['native', 'prompted'] as const).map((lane) => ({
  name: `${lane} lane`,
  model: gatewayModels[lane],
  stream: false,
  unit: 'request',
  unitsPerRequest: 1,
  warmUpRequests: 6_000,
  countedRequests: 4_000,
  connections: 8,
}));

export const streamedKinds: readonly CountKind[] = [
  { name: 'native lane, streamed', model: gatewayModels.nativeStream },
  { name: 'prompted lane, streamed', model: gatewayModels.promptedStream },
].map((kind) => ({ ...kind, stream: true, unit: 'chunk', unitsPerRequest: chunksPerStream, ...streamedRequests }));

/** Per unit (a request, or a streamed chunk): the work's events, and the instructions V8 spent compiling and collecting garbage besides. */
export type CountFigures = {
  tree: LaneTree;
  kind: Pick<CountKind, 'name' | 'unit'>;
  perRequest: CacheEvents;
  compilingInstructions: number;
  collectingInstructions: number;
};

/** A simulated last level of 1 MB, 16-way, 64-byte lines: about one core's L2, so misses show a request's footprint. */
const lastLevelCache = '--LL=1048576,16,64';

/**
 * What V8 does besides running the gateway's code: compiling it (its parser, bytecode generator and
 * optimising compilers) and collecting garbage. Compiling is warm-up that sometimes falls inside the
 * counted window (it was the whole 13 % between two runs of one tree); a major collection is one lump
 * that lands in one run and not in the next. Counted apart, they leave a figure for the work that repeats.
 */
const compilingFunction =
  /\bv8::internal::(?:(?:compiler|maglev|turboshaft|baseline|interpreter)::|(?:Compiler|Parser|PreParser|ParserBase|Scanner|Zone|AstValueFactory|DeclarationScope|Scope|OptimizingCompileDispatcher)\b)/;
const collectingFunction =
  /\bv8::internal::(?:Heap|Scavenger\w*|MarkCompactCollector|MinorMarkSweepCollector|\w*Marking\w*|Sweeper|\w*Evacuat\w*|GCTracer|ConcurrentMarking|MemoryAllocator|PagedSpace\w*)\b/;

export type CountPart = 'work' | 'compiling' | 'collecting';

export function partOf(functionName: string): CountPart {
  if (compilingFunction.test(functionName)) return 'compiling';
  if (collectingFunction.test(functionName)) return 'collecting';
  return 'work';
}

/**
 * A callgrind output file's events summed by part (each function's own cost, not its callees'), by
 * event name. Function names are compressed (`fn=(12) name` once, `fn=(12)` after); the cost line after
 * a `calls=` line is the call's inclusive cost, counted at its callee, so it is skipped here. Throws
 * when the file has no `events:` or `totals:` line (callgrind did not finish writing it).
 */
export function readCallgrindParts(text: string): Record<CountPart, Record<string, number>> {
  const events = /^events: (.+)$/m.exec(text)?.[1]?.trim().split(/\s+/);
  const positions = /^positions: (.+)$/m.exec(text)?.[1]?.trim().split(/\s+/).length ?? 1;
  if (!events || !/^totals: /m.test(text)) throw new Error('the callgrind output has no events or totals line');
  const sums: Record<CountPart, number[]> = { work: events.map(() => 0), compiling: events.map(() => 0), collecting: events.map(() => 0) };
  const names = new Map<string, string>();
  let part: CountPart = 'work';
  let callCost = false;
  for (const line of text.split('\n')) {
    const first = line.charCodeAt(0);
    // A cost line starts with its position: a number, or +n, -n, * relative to the last one.
    if ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 42) {
      if (callCost) {
        callCost = false;
        continue;
      }
      const fields = line.split(' ');
      const sum = sums[part];
      for (let index = 0; index < events.length; index++) sum[index]! += Number(fields[positions + index] ?? 0) || 0;
    } else if (line.startsWith('fn=')) {
      const name = /^fn=(?:\((\d+)\))? ?(.*)$/.exec(line);
      const id = name?.[1];
      let full = name?.[2] ?? '';
      if (id !== undefined) {
        if (full) names.set(id, full);
        else full = names.get(id) ?? '';
      }
      part = partOf(full);
    } else if (line.startsWith('cfn=')) {
      // A callee named here for the first time: its id is used by later fn= lines.
      const name = /^cfn=\((\d+)\) (.+)$/.exec(line);
      if (name) names.set(name[1]!, name[2]!);
    } else if (line.startsWith('calls=')) {
      callCost = true;
    }
  }
  const named = (values: number[]) => Object.fromEntries(events.map((event, index) => [event, values[index] ?? 0]));
  return { work: named(sums.work), compiling: named(sums.compiling), collecting: named(sums.collecting) };
}

/**
 * A rough cycle estimate from the counts, with the weights cachegrind's manual uses for its own
 * estimate: 10 cycles a first-level miss, 100 a last-level one. A guide for comparing two trees, not a
 * prediction of time on any CPU.
 */
export function estimatedCycles(events: CacheEvents): number {
  return events.Ir + 10 * firstLevelMisses(events) + 100 * (events.ILmr + lastLevelDataMisses(events));
}

const firstLevelMisses = (events: CacheEvents) => events.I1mr + events.D1mr + events.D1mw;
const lastLevelDataMisses = (events: CacheEvents) => events.DLmr + events.DLmw;

function requireValgrind(): void {
  const found = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0)
    throw new Error('--instructions needs valgrind and callgrind_control (Debian: apt-get install valgrind); it was not found');
}

/** `count` requests over `connections` keep-alive connections, each answered 200 (or this throws). */
async function sendRequests(url: string, body: Buffer, count: number, connections: number): Promise<void> {
  const pool = new Pool(url, { connections });
  let sent = 0;
  const failures: Failures = { count: 0 };
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (sent < count) {
          sent++;
          const response = await pool.request({
            path: '/v1/chat/completions',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          if (response.statusCode === 200) await response.body.text();
          else await recordFailure(failures, response);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  if (failures.count > 0) throw new Error(`${failures.count} of ${count} requests failed; the first: ${failures.first}`);
}

async function countOneTree(tree: LaneTree, kind: CountKind, configPath: string, directory: string): Promise<CountFigures> {
  const port = await freePort();
  const outputPrefix = path.join(directory, `${path.basename(tree.root)}-${kind.name.replace(/\W+/g, '-')}-${port}`);
  const logPath = `${outputPrefix}.log`;
  const log = openSync(logPath, 'w');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--cache-sim=yes',
      lastLevelCache,
      // V8's generated code lives on the heap: valgrind must notice when it is rewritten.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${outputPrefix}.%p.callgrind`,
      process.execPath,
      '--predictable',
      // Bytecode flushed after some collections is compiled again later, sometimes inside the counted window.
      '--no-flush-bytecode',
      '--import',
      'tsx',
      'src/server.ts',
      '--config',
      configPath,
      '--port',
      String(port),
    ],
    { cwd: tree.root, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    // Under valgrind the gateway starts in tens of seconds rather than one or two.
    await waitForHealth(url, child, logPath, 300_000);
    const body = benchRequestBody({ model: kind.model, stream: kind.stream, toolCount: 1 });
    await sendRequests(url, body, kind.warmUpRequests, kind.connections);
    execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    await sendRequests(url, body, kind.countedRequests, kind.connections);
    execFileSync('callgrind_control', ['--instr=off', String(child.pid)], { stdio: 'ignore' });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const outputs = readdirSync(directory).filter(
    (name) => name.startsWith(`${path.basename(outputPrefix)}.`) && name.endsWith('.callgrind'),
  );
  if (outputs.length === 0) throw new Error(`callgrind wrote no output for ${tree.label} (${kind.name}); its log: ${logPath}`);
  // The gateway is one process; its threads are counted together in one file (no --separate-threads).
  const parts = outputs.map((name) => readCallgrindParts(readFileSync(path.join(directory, name), 'utf8')));
  const counted = parts.reduce((largest, next) => ((next.work.Ir ?? 0) > (largest.work.Ir ?? 0) ? next : largest));
  const units = kind.countedRequests * kind.unitsPerRequest;
  const perRequest = (events: Record<string, number>, name: string) => (events[name] ?? 0) / units;
  return {
    tree,
    kind: { name: kind.name, unit: kind.unit },
    perRequest: Object.fromEntries(eventNames.map((name) => [name, perRequest(counted.work, name)])) as CacheEvents,
    compilingInstructions: perRequest(counted.compiling, 'Ir'),
    collectingInstructions: perRequest(counted.collecting, 'Ir'),
  };
}

/** Every tree for each kind, one after the other (the counts do not depend on the machine's load). */
export async function runInstructionCounts(
  trees: LaneTree[],
  progress: Progress,
  kinds: readonly CountKind[] = wholeRequestKinds,
): Promise<CountFigures[]> {
  requireValgrind();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-bench-instructions-'));
  const upstream = await spawnServerProcess('fake-upstream');
  const figures: CountFigures[] = [];
  try {
    const configPath = writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, 'info');
    for (const kind of kinds)
      for (const tree of trees) {
        progress(
          `counting the ${kind.name} of ${tree.label} (${tree.commit}) under valgrind: ${kind.warmUpRequests} requests of warm-up, ${kind.countedRequests} counted`,
        );
        figures.push(await countOneTree(tree, kind, configPath, directory));
      }
  } finally {
    await upstream.stop();
  }
  // Kept when a count failed: its error names the gateway's log in there.
  rmSync(directory, { recursive: true, force: true });
  return figures;
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

/** One table per kind (in the order counted): each tree's counts per request or chunk, and this tree (the first) ÷ each other. */
export function renderInstructionCounts(figures: CountFigures[]): string {
  const kindNames = [...new Set(figures.map((figure) => figure.kind.name))];
  const sections = kindNames.map((name) => {
    const rows = figures.filter((figure) => figure.kind.name === name);
    const [mine, ...others] = rows;
    if (!mine) return '';
    const line = (label: string, figure: CountFigures) => [
      label,
      thousands(figure.perRequest.Ir),
      thousands(firstLevelMisses(figure.perRequest)),
      thousands(figure.perRequest.ILmr),
      thousands(lastLevelDataMisses(figure.perRequest)),
      thousands(estimatedCycles(figure.perRequest)),
      thousands(figure.compilingInstructions),
      thousands(figure.collectingInstructions),
    ];
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)} ×` : '–');
    const table = renderMarkdownTable(
      [
        'Tree',
        'Instructions',
        'L1 misses',
        'LL misses (code)',
        'LL misses (data)',
        'Estimated cycles',
        'Besides: V8 compiling',
        'garbage collection',
      ],
      [
        ...rows.map((row) => line(`${row.tree.label} (${row.tree.commit})`, row)),
        ...others.map((other) => {
          const a = mine.perRequest;
          const b = other.perRequest;
          return [
            `this tree ÷ ${other.tree.commit}`,
            ratio(a.Ir, b.Ir),
            ratio(firstLevelMisses(a), firstLevelMisses(b)),
            ratio(a.ILmr, b.ILmr),
            ratio(lastLevelDataMisses(a), lastLevelDataMisses(b)),
            ratio(estimatedCycles(a), estimatedCycles(b)),
            // Warm-up and lumps: no ratio to read a change into.
            '',
            '',
          ];
        }),
      ],
    );
    return `### ${name}, per ${mine.kind.unit}\n\n${table}\n\nThe first columns count the work: what V8 spent compiling code and collecting garbage inside the counted window is given apart (right), as it falls into one run and not the next.`;
  });
  return sections.filter(Boolean).join('\n\n');
}
