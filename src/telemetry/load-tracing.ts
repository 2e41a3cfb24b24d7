/**
 * Tracing when configured, nothing otherwise: the SDK and exporter are imported only then, so a
 * gateway without traces loads none of OpenTelemetry and pays nothing per request.
 */
import type { TelemetrySettings } from '../config/config-types.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { GatewayTracing } from './gateway-tracing.js';
import type { GenAiProviderNames } from './gen-ai-attributes.js';
import { resolveTracingSettings } from './tracing-settings.js';

export async function loadTracing(
  telemetry: TelemetrySettings | undefined,
  environment: Record<string, string | undefined>,
  serviceVersion: string,
  redactor: SecretRedactor,
  genAiProviderName: GenAiProviderNames,
): Promise<GatewayTracing | undefined> {
  const settings = resolveTracingSettings(telemetry, environment);
  if (!settings) return undefined;
  const { createOtlpTracing } = await import('./otlp-tracing.js');
  return createOtlpTracing(settings, serviceVersion, (text) => redactor.redact(text), genAiProviderName);
}
