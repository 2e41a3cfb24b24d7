/**
 * Where traces go, from the config's `telemetry` section or the standard OpenTelemetry variables;
 * undefined when neither names an endpoint (traces off).
 * https://opentelemetry.io/docs/specs/otel/protocol/exporter/
 */
import type { TelemetrySettings } from '../config/config-types.js';

export type TracingSettings = {
  /** The full traces URL (`…/v1/traces`). */
  url: string;
  serviceName: string;
  headers: Record<string, string>;
};

type Environment = Record<string, string | undefined>;

/** OTLP/HTTP puts each signal under its own path of the base endpoint. */
function tracesUrl(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

export function resolveTracingSettings(telemetry: TelemetrySettings | undefined, environment: Environment): TracingSettings | undefined {
  if (environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  // `none` turns traces off even where an endpoint is set for other signals.
  if (!telemetry?.otlpEndpoint && environment.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return undefined;
  const url = telemetry?.otlpEndpoint
    ? tracesUrl(telemetry.otlpEndpoint)
    : environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
      (environment.OTEL_EXPORTER_OTLP_ENDPOINT ? tracesUrl(environment.OTEL_EXPORTER_OTLP_ENDPOINT) : undefined);
  if (!url) return undefined;
  return { url, serviceName: telemetry?.serviceName ?? environment.OTEL_SERVICE_NAME ?? 'interlingua', headers: telemetry?.headers ?? {} };
}
