/** Model names are the one metric label a client chooses: their series stay bounded however many names arrive. */
import { describe, expect, it } from 'vitest';
import { BoundedLabelValues, overflowLabelValue } from '../../src/plugins/labelled-series.js';
import { Metrics } from '../../src/plugins/metrics.js';
import { metricSamples } from '../helpers/metric-samples.js';

describe('BoundedLabelValues', () => {
  it('keeps the first values it sees and counts later new ones under one overflow value', () => {
    const values = new BoundedLabelValues(2);
    expect(['a', 'b', 'c', 'a', 'd', 'b'].map((value) => values.label(value))).toEqual([
      'a',
      'b',
      overflowLabelValue,
      'a',
      overflowLabelValue,
      'b',
    ]);
  });
});

describe('Metrics under a flood of made-up model names', () => {
  it('has at most the limit of model series per metric, and loses no count', async () => {
    const metrics = new Metrics(() => 0, 3);
    const names = Array.from({ length: 50 }, (_, index) => `made-up-${index}`);
    for (const model of names) {
      metrics.observeRequest({ route: '/v1/chat/completions', provider: 'local', model, status: 200, durationMs: 1 });
      metrics.observeRetry({ provider: 'local', model, reason: 'http_503' });
    }
    const samples = metricSamples(await metrics.registry.metrics());
    const requestSeries = [...samples.keys()].filter((name) => name.startsWith('interlingua_requests_total{'));
    expect(requestSeries).toHaveLength(4);
    const request = (model: string) =>
      samples.get(`interlingua_requests_total{route="/v1/chat/completions",provider="local",model="${model}",status="200",key=""}`);
    expect(names.slice(0, 3).map(request)).toEqual([1, 1, 1]);
    expect(request(overflowLabelValue)).toBe(47);
    expect(samples.get(`interlingua_upstream_retries_total{provider="local",model="${overflowLabelValue}",reason="http_503"}`)).toBe(47);
  });
});
