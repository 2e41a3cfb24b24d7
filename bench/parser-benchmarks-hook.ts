/**
 * HOOK for the parser figures of the prompted tool-calling issue: `bench/parsers.ts` (written by the
 * tool-formats engineer) exports `runParserBenchmarks()`. It is imported by path at run time, so the
 * suite still type-checks and runs before that file exists; whatever it returns is rendered here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMarkdownTable } from './markdown-table.js';

const parsersModule = new URL('./parsers.ts', import.meta.url);

export type ParserSection = { status: 'missing' | 'failed' | 'ok'; markdown: string };

/** Accepts a markdown string, rows of records, or nothing (the function printed its own output). */
function render(result: unknown): string {
  if (typeof result === 'string') return result;
  if (Array.isArray(result) && result.length > 0 && result.every((row) => row && typeof row === 'object')) {
    const rows = result as Record<string, unknown>[];
    const headers = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    return renderMarkdownTable(
      headers,
      rows.map((row) => headers.map((header) => String(row[header] ?? ''))),
    );
  }
  if (result === undefined) return '(runParserBenchmarks printed its own output above)';
  return '```json\n' + JSON.stringify(result, null, 2) + '\n```';
}

export async function runParserSection(): Promise<ParserSection> {
  if (!existsSync(fileURLToPath(parsersModule))) {
    return { status: 'missing', markdown: '_Not measured: `bench/parsers.ts` (exporting `runParserBenchmarks()`) does not exist yet._' };
  }
  try {
    const module = (await import(parsersModule.href)) as { runParserBenchmarks?: () => unknown };
    if (typeof module.runParserBenchmarks !== 'function') {
      return { status: 'failed', markdown: '_Not measured: `bench/parsers.ts` exports no `runParserBenchmarks()`._' };
    }
    return { status: 'ok', markdown: render(await module.runParserBenchmarks()) };
  } catch (error) {
    return { status: 'failed', markdown: `_Parser benchmarks failed: ${(error as Error).message}_` };
  }
}
