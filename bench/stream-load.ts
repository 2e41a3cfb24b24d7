/**
 * Streaming load: `streams` concurrent SSE requests, each followed by the next as soon as it ends,
 * for a fixed window. Measures time to first body byte and reply chunks delivered per second.
 */
import type { Dispatcher } from 'undici';
import { recordFailure, runClosedLoop, type Failures } from './closed-loop.js';
import { percentile, sortedCopy } from './statistics.js';

export type StreamLoadOptions = {
  dispatcher: Dispatcher;
  path: string;
  body: Buffer;
  streams: number;
  durationMs: number;
  /** Upstream chunks in one reply: counted at the source, since a proxy may re-chunk. */
  chunksPerReply: number;
};

export type StreamLoadResult = {
  completed: number;
  errors: number;
  elapsedMs: number;
  chunksPerSecond: number;
  ttfbP50Ms: number;
  ttfbP99Ms: number;
  firstError?: string;
};

const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };

export async function measureStreams(options: StreamLoadOptions): Promise<StreamLoadResult> {
  const firstBytes: number[] = [];
  const failures: Failures = { count: 0 };
  let completed = 0;
  const elapsedMs = await runClosedLoop(
    options.streams,
    options.durationMs,
    async () => {
      const sent = performance.now();
      const response = await options.dispatcher.request({ method: 'POST', path: options.path, headers, body: options.body });
      if (response.statusCode !== 200) return recordFailure(failures, response);
      let first = true;
      for await (const _chunk of response.body) {
        if (!first) continue;
        first = false;
        firstBytes.push(performance.now() - sent);
      }
      completed++;
    },
    failures,
  );
  const sorted = sortedCopy(firstBytes);
  const result: StreamLoadResult = {
    completed,
    errors: failures.count,
    elapsedMs,
    chunksPerSecond: (completed * options.chunksPerReply * 1000) / elapsedMs,
    ttfbP50Ms: percentile(sorted, 50),
    ttfbP99Ms: percentile(sorted, 99),
  };
  if (failures.first !== undefined) result.firstError = failures.first;
  return result;
}
