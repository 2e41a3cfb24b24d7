/** Request lines wait for the end of the event loop's turn, then go out together, in order, to the log and the metrics. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/plugins/metrics.js';
import { RequestLines, type RequestLine } from '../../src/plugins/request-lines.js';
import { metricSamples } from '../helpers/metric-samples.js';

function capturedLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  // pino writes to a Writable synchronously, so what was written can be read at once.
  return { logger: pino({ level: 'info' }, sink), lines };
}

function line(reqId: string, status: number): RequestLine {
  return {
    reqId,
    method: 'POST',
    url: '/v1/chat/completions',
    status,
    durationMs: 1.5,
    provider: 'local',
    model: 'qwen3-8b',
    toolCalling: 'native',
    toolFormat: undefined,
    stream: false,
    key: undefined,
    outcome: undefined,
  };
}

async function requestsCounted(metrics: Metrics, status: number): Promise<number | undefined> {
  const samples = metricSamples(await metrics.registry.metrics());
  return samples.get(
    `interlingua_requests_total{route="/v1/chat/completions",provider="local",model="qwen3-8b",status="${status}",key=""}`,
  );
}

describe('RequestLines', () => {
  it('writes the lines of one turn together at its end, in order, with their metrics', async () => {
    const { logger, lines } = capturedLogger();
    const metrics = new Metrics(() => 0);
    const requestLines = new RequestLines(logger, metrics);
    requestLines.add(line('req_1', 200), '/v1/chat/completions');
    requestLines.add(line('req_2', 502), '/v1/chat/completions');
    requestLines.add(line('req_3', 200), '/v1/chat/completions');
    expect(lines).toEqual([]);
    expect(await requestsCounted(metrics, 200)).toBeUndefined();

    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((written) => [written.reqId, written.level, written.msg])).toEqual([
      ['req_1', 30, 'request'],
      ['req_2', 40, 'request'],
      ['req_3', 30, 'request'],
    ]);
    // Undefined members are left out of the line.
    expect(lines[0]).not.toHaveProperty('key');
    expect(await requestsCounted(metrics, 200)).toBe(2);
    expect(await requestsCounted(metrics, 502)).toBe(1);
  });

  it('writes what is pending at once on flush, once only, and schedules the next turn again', async () => {
    const { logger, lines } = capturedLogger();
    const requestLines = new RequestLines(logger, new Metrics(() => 0));
    requestLines.add(line('req_a', 200), '/v1/chat/completions');
    requestLines.flush();
    expect(lines.map((written) => written.reqId)).toEqual(['req_a']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);

    requestLines.add(line('req_b', 200), '/v1/chat/completions');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((written) => written.reqId)).toEqual(['req_a', 'req_b']);
  });
});
