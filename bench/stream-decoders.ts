/**
 * Upstream stream decoding micro-benchmarks: one long SSE event and one long NDJSON line (Ollama), in
 * 16 KB reads as a socket delivers them, 1 MB against 10 MB. Linear decoding gives a 10 MB / 1 MB time
 * ratio near 10; the quadratic decoding this replaced gave about 100. Standalone: `node --import tsx bench/stream-decoders.ts`.
 */
import { pathToFileURL } from 'node:url';
import { Response } from 'undici';
import { limitFetchResponse } from '../src/http/limit-fetch-response.js';
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

/** The `ollama` package's own NDJSON loop (ollama 0.6 `parseJSON`): it re-splits its whole pending text at every chunk. */
async function packageStyleLines(body: ReadableStream<Uint8Array>): Promise<number> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) lines += JSON.parse(part) ? 1 : 0;
  }
  return lines;
}

function streamOf(chunks: readonly Buffer[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++] as Buffer);
      else controller.close();
    },
  });
}

/** The gateway's path: the metered body hands the package whole lines. */
function decodeNdjson(chunks: readonly Buffer[]): Promise<number> {
  const limited = limitFetchResponse(new Response(streamOf(chunks)), { type: 'lines', maxBytes: 64 * megabyte, provider: 'bench' });
  return packageStyleLines(limited.body as ReadableStream<Uint8Array>);
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
  return { decoder, oneMegabyteMs: round(oneMegabyteMs), tenMegabytesMs: round(tenMegabytesMs), tenToOneRatio: round(tenMegabytesMs / oneMegabyteMs) };
}

export async function runStreamDecoderBenchmarks(): Promise<StreamDecoderRow[]> {
  return [
    await row('SSE: one long event (SseDecoder)', sseEvent, decodeSse),
    await row('NDJSON: one long line (metered body + the ollama package loop)', ndjsonLine, decodeNdjson),
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
