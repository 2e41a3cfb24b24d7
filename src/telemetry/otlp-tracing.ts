/**
 * Traces over OTLP/HTTP (JSON): a tracer provider of the app's own (never the global one), a batch
 * processor, and W3C trace-context extraction so a client's `traceparent` becomes the parent.
 * Loaded only when an endpoint is configured (load-tracing.ts).
 */
import { ROOT_CONTEXT, defaultTextMapGetter, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { ProviderConfig } from '../config/config-types.js';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { GatewayTracing, RequestTrace, RequestTraceStart } from './gateway-tracing.js';
import type { GenAiProviderNames } from './gen-ai-attributes.js';
import { RequestSpan } from './request-span.js';
import { traceProviderAdapter } from './trace-provider-adapter.js';
import { upstreamEndpoint, type UpstreamEndpoint } from './upstream-endpoint.js';
import type { TracingSettings } from './tracing-settings.js';

/** How long shutdown waits for the last export: a dead collector must not hold the process. */
const shutdownLimitMs = 3_000;

class OtlpTracing implements GatewayTracing {
  private readonly propagator = new W3CTraceContextPropagator();
  /** The request span each provider context belongs to; weak, so a finished request leaves nothing behind. */
  private readonly requestSpans = new WeakMap<object, RequestSpan>();
  private readonly endpoints = new Map<string, UpstreamEndpoint>();

  constructor(
    private readonly provider: BasicTracerProvider,
    private readonly tracer: Tracer,
    private readonly redact: (text: string) => string,
    private readonly genAiProviderName: GenAiProviderNames,
  ) {}

  startRequest(start: RequestTraceStart): RequestTrace {
    const parent = this.propagator.extract(ROOT_CONTEXT, start.headers, defaultTextMapGetter);
    return new RequestSpan(
      {
        tracer: this.tracer,
        bindings: this.requestSpans,
        endpoints: this.endpoints,
        redact: this.redact,
        genAiProviderName: this.genAiProviderName,
      },
      parent,
      start,
    );
  }

  traceProvider(adapter: ProviderAdapter, provider: ProviderConfig): ProviderAdapter {
    const endpoint = upstreamEndpoint(provider, this.genAiProviderName);
    this.endpoints.set(provider.name, endpoint);
    return traceProviderAdapter(adapter, endpoint, { tracer: this.tracer, redact: this.redact }, (context: ProviderContext) =>
      this.requestSpans.get(context),
    );
  }

  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, shutdownLimitMs);
      timer.unref();
    });
    try {
      await Promise.race([this.provider.shutdown().catch(() => {}), limit]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `redact`: error messages in span statuses pass it (an upstream's error may echo a configured key). */
export function createOtlpTracing(
  settings: TracingSettings,
  serviceVersion: string,
  redact: (text: string) => string,
  genAiProviderName: GenAiProviderNames,
): GatewayTracing {
  const exporter = new OTLPTraceExporter({ url: settings.url, headers: settings.headers, timeoutMillis: shutdownLimitMs });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: serviceVersion }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return new OtlpTracing(provider, provider.getTracer('interlingua', serviceVersion), redact, genAiProviderName);
}
