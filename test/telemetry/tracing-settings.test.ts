/** Where traces go: the config's endpoint, else the standard OTEL_* variables; off when neither names one. */
import { describe, expect, it } from 'vitest';
import { resolveTracingSettings } from '../../src/telemetry/tracing-settings.js';

describe('resolveTracingSettings', () => {
  it('is off with neither a configured endpoint nor an OTEL variable', () => {
    expect(resolveTracingSettings(undefined, {})).toBeUndefined();
    expect(resolveTracingSettings({ headers: {}, serviceName: 'gateway' }, {})).toBeUndefined();
  });

  it('adds the traces path to a configured base endpoint, with its service name and headers', () => {
    expect(
      resolveTracingSettings(
        { otlpEndpoint: 'http://127.0.0.1:4318/', serviceName: 'gateway', headers: { 'x-honeycomb-team': 'k' } },
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://elsewhere:4318' },
      ),
    ).toEqual({
      url: 'http://127.0.0.1:4318/v1/traces',
      serviceName: 'gateway',
      headers: { 'x-honeycomb-team': 'k' },
    });
  });

  it('reads the standard variables: a traces endpoint is taken whole, a base endpoint gets the path', () => {
    expect(
      resolveTracingSettings(undefined, {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318',
      })?.url,
    ).toBe('http://collector:4318/custom');
    expect(resolveTracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'edge' })).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: 'edge',
      headers: {},
    });
    expect(resolveTracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.serviceName).toBe('interlingua');
  });

  it('is off when the SDK is disabled, or traces are, by variable', () => {
    expect(resolveTracingSettings({ otlpEndpoint: 'http://127.0.0.1:4318', headers: {} }, { OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(
      resolveTracingSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
  });
});
