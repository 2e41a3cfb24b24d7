/**
 * Each finished request's log line and request metrics, written once per event-loop turn for every request
 * that ended in it, rather than inside each request.
 *
 * Why: under load the CPU's caches hold only part of the code one request runs through. pino's serializer
 * and the metrics' series lookups, run once between two requests' paths, evicted code of those paths and were
 * evicted by it in turn; run for every request of a turn in a row, they stay warm. Measured at 32
 * connections, non-streaming, paired rounds of the same tree with and without: 4 to 8 % less CPU per
 * request (docs/performance.md, seventh session).
 *
 * A line waits at most for the end of the current turn (a setImmediate). The metrics route writes what is
 * pending before it answers, so a scrape sees every request that ended before it; closing the app writes
 * the rest. Only a crash in the same turn can lose lines, as a crash could before they reached the log.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.js';

/** The request's line as logged (pino leaves out the members that are undefined). */
export type RequestLine = {
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

export class RequestLines {
  private lines: RequestLine[] = [];
  /** The route pattern of each pending line (a metrics label, not a log field), in the same order. */
  private routes: string[] = [];
  private readonly flushBound = (): void => this.flush();

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly metrics: Metrics,
  ) {}

  add(line: RequestLine, route: string): void {
    this.lines.push(line);
    this.routes.push(route);
    if (this.lines.length === 1) setImmediate(this.flushBound);
  }

  /** Writes every pending line now (the turn's end, a metrics scrape, the app's close). */
  flush(): void {
    const { lines, routes } = this;
    if (lines.length === 0) return;
    // Fresh arrays first: a line added while these are written (a logger that throws, say) is not lost.
    this.lines = [];
    this.routes = [];
    for (let index = 0; index < lines.length; index++) this.write(lines[index] as RequestLine, routes[index] as string);
  }

  private write(line: RequestLine, route: string): void {
    this.metrics.observeRequest({
      route,
      provider: line.provider,
      model: line.model,
      status: line.status,
      key: line.key,
      durationMs: line.durationMs,
    });
    if (line.status >= 500) this.logger.warn(line, 'request');
    else this.logger.info(line, 'request');
  }
}
