/**
 * Ending an upstream body (undici: "all response bodies must always be fully consumed or destroyed").
 * Destroying an unfinished body aborts the request and closes its connection, which is right when the
 * client went away, and wasteful when the reply is complete: then the few bytes left are read instead,
 * so the connection goes back to the pool and no abort error is built.
 */
import type { Readable } from 'node:stream';

type DumpableBody = Readable & { dump?: (options?: { limit: number }) => Promise<void> };

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
   * destroy the body if the upstream neither ends it within 2 s nor within 64 KB.
   */
  complete(): void {
    if (this.settled) return;
    this.settled = true;
    const dump = (this.body as DumpableBody).dump;
    if (!dump || this.body.readableEnded || this.body.destroyed) return this.destroy();
    const timer = setTimeout(() => this.destroy(), drainTimeoutMs);
    timer.unref();
    dump
      .call(this.body, { limit: drainLimitBytes })
      .catch(() => undefined)
      .finally(() => clearTimeout(timer));
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
