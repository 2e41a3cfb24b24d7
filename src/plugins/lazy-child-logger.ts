/**
 * A per-request logger that creates its pino child only when something is logged through it.
 * Fastify makes one child per request; most requests log nothing through it (the request line is
 * written by the root logger with the request id), so building children eagerly was pure overhead.
 */
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;

export function createLazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  const real = () => (child ??= parent.child(bindings));
  const logger = {
    get level() {
      return parent.level;
    },
    set level(level: string) {
      real().level = level;
    },
    fatal: (...args: unknown[]) => (real().fatal as (...values: unknown[]) => void)(...args),
    error: (...args: unknown[]) => (real().error as (...values: unknown[]) => void)(...args),
    warn: (...args: unknown[]) => (real().warn as (...values: unknown[]) => void)(...args),
    info: (...args: unknown[]) => (real().info as (...values: unknown[]) => void)(...args),
    debug: (...args: unknown[]) => (real().debug as (...values: unknown[]) => void)(...args),
    trace: (...args: unknown[]) => (real().trace as (...values: unknown[]) => void)(...args),
    silent: () => undefined,
    child: (more: Bindings, options?: object) => real().child(more, options),
  };
  return logger as unknown as FastifyBaseLogger;
}
