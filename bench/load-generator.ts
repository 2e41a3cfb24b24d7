/**
 * Non-streaming load over an undici Pool: requests/s and latency percentiles at a fixed number of
 * connections. Deliberately light (one reused body buffer, answers discarded unread), since it
 * shares two cores with the processes it measures.
 */
import type { Dispatcher } from 'undici';
import { recordFailure, runClosedLoop, type Failures } from './closed-loop.js';
import { percentile, sortedCopy } from './statistics.js';

export type RequestLoadOptions = {
  dispatcher: Dispatcher;
  path: string;
  /** One body for every request, or several sent in turn. */
  body: Buffer | readonly Buffer[];
  connections: number;
  durationMs: number;
  /** Sent besides the content type (a client key). */
  headers?: Record<string, string>;
};

export type RequestLoadResult = {
  requests: number;
  errors: number;
  elapsedMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  firstError?: string;
};

const headers = { 'content-type': 'application/json' };

export async function measureRequests(options: RequestLoadOptions): Promise<RequestLoadResult> {
  const latencies: number[] = [];
  const failures: Failures = { count: 0 };
  const bodies = Array.isArray(options.body) ? options.body : [options.body];
  let requestsSent = 0;
  const requestHeaders = options.headers ? { ...headers, ...options.headers } : headers;
  const elapsedMs = await runClosedLoop(
    options.connections,
    options.durationMs,
    async () => {
      const sent = performance.now();
      const response = await options.dispatcher.request({
        method: 'POST',
        path: options.path,
        headers: requestHeaders,
        body: bodies[requestsSent++ % bodies.length],
      });
      if (response.statusCode !== 200) return recordFailure(failures, response);
      await response.body.dump();
      latencies.push(performance.now() - sent);
    },
    failures,
  );
  const sorted = sortedCopy(latencies);
  const result: RequestLoadResult = {
    requests: latencies.length,
    errors: failures.count,
    elapsedMs,
    requestsPerSecond: (latencies.length * 1000) / elapsedMs,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
  if (failures.first !== undefined) result.firstError = failures.first;
  return result;
}
