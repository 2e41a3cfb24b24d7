/**
 * The gateway's log destination: stdout, written in blocks rather than one write(2) per line.
 * With one line per request, per-line writes cost about 8 µs of the ~225 µs CPU a non-streaming
 * request cost (measured side by side, 32 connections); blocks of 16 KB make that a fraction.
 *
 * Why not sonic-boom's own buffering (`minLength`): it measures the UTF-8 length of its whole pending
 * buffer on every line, flattening and rescanning kilobytes per request line. Here lines are kept as
 * they come and joined once per block.
 *
 * Lines are never held long: a timer writes what is pending every 200 ms, so a quiet gateway's log
 * still reads live, and the rest is written synchronously at exit (shutdown, fatal error, uncaught
 * exception). Only a SIGKILL can lose lines: at most the last 200 ms.
 */
import { writeSync } from 'node:fs';

export type LogDestinationOptions = {
  fd?: number;
  /** Pending text (in UTF-16 code units, close enough to bytes for a threshold) that triggers a write. */
  blockLength?: number;
  flushIntervalMs?: number;
};

/** How long a write waits when the reader of a pipe is behind (EAGAIN), as sonic-boom does. */
const busyRetryMs = 100;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** All of `bytes`, however many writes a pipe takes; false when the reader went away (EPIPE). Other failures throw. */
function writeFully(fd: number, bytes: Buffer): boolean {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EBUSY') {
        Atomics.wait(sleeper, 0, 0, busyRetryMs);
        continue;
      }
      if (code === 'EPIPE') return false;
      throw error;
    }
  }
  return true;
}

export class LogDestination {
  private pending: string[] = [];
  private pendingLength = 0;
  /** Cleared when the reader went away: logging then stops quietly, as pino's own destination does. */
  private open = true;
  private readonly fd: number;
  private readonly blockLength: number;

  constructor(options: LogDestinationOptions = {}) {
    this.fd = options.fd ?? 1;
    this.blockLength = options.blockLength ?? 16 * 1024;
    setInterval(() => this.flushSync(), options.flushIntervalMs ?? 200).unref();
    process.once('exit', () => this.flushSync());
  }

  /** Called by pino with one serialised line (newline included). */
  write(line: string): void {
    if (!this.open) return;
    this.pending.push(line);
    this.pendingLength += line.length;
    if (this.pendingLength >= this.blockLength) this.flushSync();
  }

  /**
   * Writes what is pending now (start-up lines, the timer, exit). A log that cannot be written must
   * not take the gateway down with it (this also runs from a timer): the failure is said once on
   * stderr and logging stops.
   */
  flushSync(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    try {
      if (!writeFully(this.fd, Buffer.from(text, 'utf8'))) this.open = false;
    } catch (error) {
      this.open = false;
      process.stderr.write(`interlingua: the log can no longer be written (${(error as Error).message}); logging stops.\n`);
    }
  }
}

export function createLogDestination(options: LogDestinationOptions = {}): LogDestination {
  return new LogDestination(options);
}
