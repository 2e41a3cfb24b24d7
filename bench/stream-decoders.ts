/**
 * Upstream stream decoding micro-benchmarks: one long SSE event and one long NDJSON line (Ollama), in
 * 16 KB reads as a socket delivers them, 1 MB against 10 MB. Linear decoding gives a 10 MB / 1 MB time
 * ratio near 10; the quadratic decoding these replaced gave about 100. Standalone: `node --import tsx bench/stream-decoders.ts`.
 */
import { pathToFileURL } from 'node:url';
import { NdjsonDecoder } from '../src/http/ndjson-decoder.js';
import { SseDecoder } from '../src/http/sse-decoder.js';

export type StreamDecoderRow = { decoder: string; oneMegabyteMs: number; tenMegabytesMs: number; tenToOneRatio: number };

const megabyte = 1024 * 1024;
const readSize = 16 * 1024;

function pieces(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += readSize) out.push(bytes.subarray(offset, offset + readSize));
  return out;
}

function sseEvent(length: number): Buffer[] {
  return pieces(Buffer.from(`data: {"choices":[{"delta":{"content":"${'x'.repeat(length)}"}}]}\n\n`));
}

function ndjsonLine(length: number): Buffer[] {
  return pieces(Buffer.from(`{"message":{"content":"${'x'.repeat(length)}"},"done":false}\n`));
}

function decodeSse(chunks: readonly Buffer[]): number {
  const decoder = new SseDecoder({ maxEventBytes: 64 * megabyte, provider: 'bench' });
  let events = 0;
  for (const chunk of chunks) events += decoder.push(chunk).length;
  return events;
}

function decodeNdjson(chunks: readonly Buffer[]): number {
  const decoder = new NdjsonDecoder({ maxEventBytes: 64 * megabyte, provider: 'bench' });
  let values = 0;
  for (const chunk of chunks) values += decoder.push(chunk).length;
  return values + decoder.finish().length;
}

/** The best of `runs` CPU timings in milliseconds (on a shared machine wall time measures the neighbours). */
async function bestTime(runs: number, run: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index++) {
    const started = process.cpuUsage();
    await run();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

async function row(decoder: string, make: (length: number) => Buffer[], run: (chunks: Buffer[]) => unknown): Promise<StreamDecoderRow> {
  const small = make(megabyte);
  const large = make(10 * megabyte);
  await bestTime(2, () => run(small));
  const oneMegabyteMs = await bestTime(5, () => run(small));
  const tenMegabytesMs = await bestTime(3, () => run(large));
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    decoder,
    oneMegabyteMs: round(oneMegabyteMs),
    tenMegabytesMs: round(tenMegabytesMs),
    tenToOneRatio: round(tenMegabytesMs / oneMegabyteMs),
  };
}

export async function runStreamDecoderBenchmarks(): Promise<StreamDecoderRow[]> {
  return [
    await row('SSE: one long event (SseDecoder)', sseEvent, decodeSse),
    await row('NDJSON: one long line (NdjsonDecoder)', ndjsonLine, decodeNdjson),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runStreamDecoderBenchmarks().then(
    (rows) => console.table(rows),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
