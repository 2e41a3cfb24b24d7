/** Streams chosen families' bench replies through this tree's parsers and, optionally, another tree's: MB/s side by side. */
// For iterating on one parser in seconds: `node --import tsx bench/parser-compare.ts [--base DIR] [--size MB] FAMILY…`
// (no family: all). The reply is `bench/parsers.ts`' own (prose and calls, 4-byte chunks); runs alternate
// between the trees so that a neighbour's load falls on both alike. Times are this process's CPU time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolDefinition, ToolFormat } from '../src/core/index.js';

type Tree = { label: string; registry: Map<string, ToolFormat>; buildReply: (format: ToolFormat, length: number) => string };

const tools: ToolDefinition[] = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
  { name: 'write_file', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
];

async function loadTree(label: string, root: string): Promise<Tree> {
  const formats = (await import(pathToFileURL(path.join(root, 'tool-formats/index.ts')).href)) as {
    createToolFormatRegistry: () => Map<string, ToolFormat>;
  };
  const bench = (await import(pathToFileURL(path.join(root, 'bench/parsers.ts')).href)) as Pick<Tree, 'buildReply'>;
  return { label, registry: formats.createToolFormatRegistry(), buildReply: bench.buildReply };
}

function streamOnce(format: ToolFormat, chunks: readonly string[]): number {
  const parser = format.createParser(tools, {});
  let calls = 0;
  for (const chunk of chunks) for (const event of parser.push(chunk)) if (event.type === 'tool-call') calls++;
  for (const event of parser.finish()) if (event.type === 'tool-call') calls++;
  return calls;
}

function cpuMilliseconds(run: () => unknown): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

function chunked(text: string): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += 4) chunks.push(text.slice(index, index + 4));
  return chunks;
}

async function main(argv: readonly string[]): Promise<void> {
  const trees: Tree[] = [await loadTree('this', path.resolve(import.meta.dirname, '..'))];
  const families: string[] = [];
  let megabytes = 1;
  let runs = 8;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === '--base') trees.push(await loadTree('base', path.resolve(argv[++index] as string)));
    else if (argument === '--size') megabytes = Number(argv[++index]);
    else if (argument === '--runs') runs = Number(argv[++index]);
    else families.push(argument);
  }
  const names = families.length > 0 ? families : [...(trees[0] as Tree).registry.keys()];
  const rows: Record<string, number | string>[] = [];
  for (const family of names) {
    const measured = trees.map((tree) => {
      const format = tree.registry.get(family);
      if (format === undefined) throw new Error(`${tree.label}: no family ${family}`);
      const text = tree.buildReply(format, megabytes * 1_000_000);
      return { format, text, chunks: chunked(text), best: Number.POSITIVE_INFINITY, calls: 0 };
    });
    for (let run = 0; run < runs + 2; run++) {
      for (const entry of measured) {
        const time = cpuMilliseconds(() => (entry.calls = streamOnce(entry.format, entry.chunks)));
        // The first two runs warm the JIT.
        if (run >= 2) entry.best = Math.min(entry.best, time);
      }
    }
    const row: Record<string, number | string> = { family };
    for (const [index, entry] of measured.entries()) {
      const label = (trees[index] as Tree).label;
      row[`${label} MB/s`] = Math.round((entry.text.length / 1000 / entry.best) * 10) / 10;
      row[`${label} calls`] = entry.calls;
    }
    const [mine, base] = measured;
    if (mine !== undefined && base !== undefined) row['ratio'] = Math.round((base.best / mine.best) * 100) / 100;
    rows.push(row);
  }
  console.table(rows);
  console.log(
    `load average ${(await import('node:os'))
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
