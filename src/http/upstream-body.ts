/**
 * Ending an upstream body (undici: "all response bodies must always be fully consumed or destroyed").
 * Destroying an unfinished body aborts the request and closes its connection, which is right when the
 * client went away, and wasteful when the reply is complete: then the few bytes left are read instead,
 * so the connection goes back to the pool and no abort error is built.
 *
 * Why not undici's `body.dump({ limit })`: its limit counts every byte the body has read, not what is
 * left, so a reply over the limit (any stream of a few hundred chunks) was destroyed on the spot, its
 * connection closed and an AbortError with its stack built, and the next request paid a new connection.
 */
import type { Readable } from 'node:stream';

const ignoreError = () => undefined;
const drainLimitBytes = 64 * 1024;
const drainTimeoutMs = 2_000;

export class UpstreamBody {
  private settled = false;

  constructor(private readonly body: Readable) {}

  /** The body's chunks; leaving the loop early does not destroy it (complete() or release() decide). */
  chunks(): AsyncIterable<Uint8Array | string> {
    return this.body.iterator({ destroyOnReturn: false });
  }

  /**
   * The reply is complete: read what is left in the background (the caller does not wait), and
   * destroy the body if the upstream neither ends it within 2 s nor within 64 KB more.
   */
  complete(): void {
    if (this.settled) return;
    this.settled = true;
    const { body } = this;
    if (body.readableEnded || body.destroyed) return;
    let leftBytes = drainLimitBytes;
    const timer = setTimeout(() => this.destroy(), drainTimeoutMs);
    timer.unref();
    body.on('error', ignoreError);
    body.once('close', () => clearTimeout(timer));
    body.on('data', (chunk: Uint8Array | string) => {
      leftBytes -= chunk.length;
      if (leftBytes < 0) this.destroy();
    });
    body.resume();
  }

  /** An early exit or a failure: the upstream sees the abort. A no-op after complete(). */
  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.destroy();
  }

  private destroy(): void {
    if (this.body.destroyed || this.body.readableEnded) return;
    // undici's body emits an AbortError when destroyed early; nobody iterates it any more to hear it.
    this.body.on('error', ignoreError);
    this.body.destroy();
  }
}
