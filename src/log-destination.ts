/**
 * The gateway's log destination: stdout, written in blocks rather than one write(2) per line.
 * With one line per request, the per-line write cost about 8 µs of the ~225 µs CPU a non-streaming
 * request costs (measured side by side, 32 connections); in blocks of up to 4 KB it is a fraction.
 * Lines are never held long: a timer flushes every 200 ms, so a quiet gateway's log still reads
 * live, and the rest is written synchronously at exit (shutdown, fatal error, uncaught exception).
 * Only a SIGKILL can lose lines: at most the last 200 ms.
 */
import pino from 'pino';

export type LogDestinationOptions = { fd?: number; blockBytes?: number; flushIntervalMs?: number };

export function createLogDestination(options: LogDestinationOptions = {}): ReturnType<typeof pino.destination> {
  const destination = pino.destination({
    dest: options.fd ?? 1,
    // Synchronous writes of whole blocks: no thread-pool hand-off per write (measured dearer than the write itself).
    sync: true,
    minLength: options.blockBytes ?? 4096,
    periodicFlush: options.flushIntervalMs ?? 200,
  });
  process.once('exit', () => destination.flushSync());
  return destination;
}
