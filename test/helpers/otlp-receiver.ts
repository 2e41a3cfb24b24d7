/**
 * An in-process OTLP/HTTP trace receiver on 127.0.0.1:0: accepts `POST /v1/traces` in the JSON
 * protocol (what @opentelemetry/exporter-trace-otlp-http sends) and keeps every span, its attributes
 * decoded from OTLP's `AnyValue` into plain values.
 * https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding
 */
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 2 SERVER, 3 CLIENT. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; timeUnixNano: string }[];
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, AttributeValue>;
};

export type OtlpReceiver = {
  /** The base endpoint, as `telemetry.otlpEndpoint` or OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Every request that reached it (paths and content types, for protocol checks). */
  server: LoopbackServer;
  close(): Promise<void>;
};

type OtlpAnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
};
type OtlpKeyValue = { key: string; value: OtlpAnyValue };
type OtlpSpan = Omit<ReceivedSpan, 'attributes' | 'resource' | 'events' | 'status'> & {
  attributes?: OtlpKeyValue[];
  events?: { name: string; timeUnixNano: string }[];
  status?: { code?: number; message?: string };
};
type OtlpExport = { resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] };

function decodeValue(value: OtlpAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function decodeAttributes(attributes: OtlpKeyValue[] = []): Record<string, AttributeValue> {
  return Object.fromEntries(attributes.map((attribute) => [attribute.key, decodeValue(attribute.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = await startLoopbackServer((request, response) => {
    if (
      request.method !== 'POST' ||
      request.path !== '/v1/traces' ||
      !String(request.headers['content-type']).startsWith('application/json')
    ) {
      response.writeHead(415).end();
      return;
    }
    for (const resourceSpans of (request.body as OtlpExport).resourceSpans ?? []) {
      const resource = decodeAttributes(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          const received: ReceivedSpan = {
            traceId: span.traceId,
            spanId: span.spanId,
            name: span.name,
            kind: span.kind,
            attributes: decodeAttributes(span.attributes),
            events: span.events ?? [],
            status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
            resource,
          };
          if (span.parentSpanId) received.parentSpanId = span.parentSpanId;
          spans.push(received);
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  return { url: server.url, spans, server, close: () => server.close() };
}
