/** Labelled series: the same Prometheus text as prom-client's own counters and histograms for the same observations. */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from '../../src/plugins/labelled-series.js';

const buckets = [0.005, 0.1, 1, 10];

describe('labelled series', () => {
  it('write what prom-client writes for the same counts and observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const counterOptions = { name: 'requests_total', help: 'Requests.', labelNames: ['route', 'status', 'key'] };
    const histogramOptions = { name: 'duration_seconds', help: 'Durations.', labelNames: ['route', 'status'], buckets };
    const counter = new SeriesCounter(counterOptions, ours);
    const histogram = new SeriesHistogram(histogramOptions, ours);
    const reference = new Counter({ ...counterOptions, registers: [theirs] });
    const referenceHistogram = new Histogram({ ...histogramOptions, registers: [theirs] });
    const observations: [string, number, string, number][] = [
      ['/v1/chat/completions', 200, '', 0.004],
      ['/v1/chat/completions', 200, '', 0.2],
      ['/v1/chat/completions', 500, 'team "a"\\', 12],
      ['/v1/messages', 200, 'team-b', 0.1],
      ['/v1/chat/completions', 200, '', 0.005],
    ];
    for (const [route, status, key, seconds] of observations) {
      counter.inc(1, route, status, key);
      reference.inc({ route, status: String(status), key });
      histogram.observe(seconds, route, status);
      referenceHistogram.observe({ route, status: String(status) }, seconds);
    }
    counter.inc(3, '/v1/messages', 200, 'team-b');
    reference.inc({ route: '/v1/messages', status: '200', key: 'team-b' }, 3);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuse what prom-client refuses: a missing label, a negative count, a value that is not finite', () => {
    const registry = new Registry();
    const counter = new SeriesCounter({ name: 'a_total', help: 'A.', labelNames: ['one', 'two'] }, registry);
    const histogram = new SeriesHistogram({ name: 'b_seconds', help: 'B.', labelNames: ['one'], buckets }, registry);
    expect(() => counter.inc(1, 'x')).toThrow('missing');
    expect(() => counter.inc(-1, 'x', 'y')).toThrow(TypeError);
    expect(() => histogram.observe(Number.NaN, 'x')).toThrow(TypeError);
  });
});
