/**
 * Logging per request: one log line when it ends (request id, method, route, provider, model, lane,
 * status, duration; written after the reply, see after-reply.ts), and the request's own logger, made only
 * when something logs through it.
 * Never a key or a prompt (headers and bodies are not logged).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyBaseLogger } from 'fastify';
import type { GatewayTracing } from '../telemetry/gateway-tracing.js';
import { requestContextOf, type RequestLogFields } from '../pipeline/request-context.js';
import type { UsageRecorder } from '../core/usage-log.js';
import type { Metrics } from './metrics.js';
import type { AfterReply } from './after-reply.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where each request's end is counted, when metrics are on (app.ts decorates it). */
    metrics?: Metrics;
    /** Tokens and spend per key, model and day (GET /v1/usage); app.ts decorates it. */
    usageLog?: UsageRecorder;
    /** Traces, when configured (app.ts decorates it); absent: no span is made. */
    tracing?: GatewayTracing;
    /** What observes a settled request (its line, metrics, usage row), done at the turn's end (app.ts decorates it). */
    afterReply: AfterReply;
  }
}

/** `fields` is kept as it is (not copied) when it is the request's first annotation: pass a fresh object. */
export function annotateRequest(request: FastifyRequest, fields: RequestLogFields): void {
  const context = requestContextOf(request);
  context.logFields = context.logFields ? Object.assign(context.logFields, fields) : fields;
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The request's line as logged (pino leaves out the members that are undefined). */
type RequestLine = {
  reqId: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  provider: string | undefined;
  model: string | undefined;
  toolCalling: string | undefined;
  toolFormat: string | undefined;
  stream: boolean | undefined;
  /** The key's name, never the key. */
  key: string | undefined;
  outcome: string | undefined;
};

/** The line and the request metrics of one request, at the end of the turn it ended in (after-reply.ts). */
function writeRequestLine(server: FastifyInstance, line: RequestLine, route: string): void {
  server.metrics?.observeRequest({
    route,
    provider: line.provider,
    model: line.model,
    status: line.status,
    key: line.key,
    durationMs: line.durationMs,
  });
  // The root logger with the id as a field: no per-request child logger on the hot path.
  if (line.status >= 500) server.log.warn(line, 'request');
  else server.log.info(line, 'request');
}

/**
 * Ends the request's record once (streams call it themselves, since hijacked replies skip onResponse): its
 * trace ends now; its line and request metrics are written after the reply (after-reply.ts). The duration
 * is fastify's own clock on the reply, started when the request arrived. One literal of fixed shape.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply, statusCode: number, outcome?: string): void {
  const context = requestContextOf(request);
  if (context.logged) return;
  context.logged = true;
  const state = context.logFields;
  const line: RequestLine = {
    reqId: request.id,
    method: request.method,
    url: pathOf(request.url),
    status: statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    provider: state?.provider,
    model: state?.model,
    toolCalling: state?.toolCalling,
    toolFormat: state?.toolFormat,
    stream: state?.stream,
    key: context.access?.name,
    outcome: outcome || undefined,
  };
  context.trace?.end(statusCode, outcome);
  const { server } = request;
  const route = request.routeOptions.url ?? 'unknown';
  server.afterReply.add(() => writeRequestLine(server, line, route));
}

export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply, reply.statusCode);
    done();
  });
}

/**
 * A per-request logger that creates its pino child only when something is logged through it.
 * Fastify makes one child per request; most requests log nothing through it (the request line is
 * written by the root logger with the request id), so building children eagerly was pure overhead.
 * A class, so that a request costs one small object and no closures.
 */
type Bindings = Record<string, unknown>;
type LogMethod = (...values: unknown[]) => void;

class LazyChildLogger {
  private created: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.created ??= this.parent.child(this.bindings));
  }

  get level(): string {
    return this.created?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...values: unknown[]): void {
    (this.real().fatal as LogMethod)(...values);
  }

  error(...values: unknown[]): void {
    (this.real().error as LogMethod)(...values);
  }

  warn(...values: unknown[]): void {
    (this.real().warn as LogMethod)(...values);
  }

  info(...values: unknown[]): void {
    (this.real().info as LogMethod)(...values);
  }

  debug(...values: unknown[]): void {
    (this.real().debug as LogMethod)(...values);
  }

  trace(...values: unknown[]): void {
    (this.real().trace as LogMethod)(...values);
  }

  silent(): void {}

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

export function createLazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings) as unknown as FastifyBaseLogger;
}
