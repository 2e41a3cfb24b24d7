/**
 * A per-request logger that creates its pino child only when something is logged through it.
 * Fastify makes one child per request; most requests log nothing through it (the request line is
 * written by the root logger with the request id), so building children eagerly was pure overhead.
 * A class, so that a request costs one small object and no closures.
 */
import type { FastifyBaseLogger } from 'fastify';

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
