/**
 * Tracks in-flight generations so that shutdown can wait for them (up to a grace period) and then
 * abort the rest; aborting flows down to the upstream requests. Quiet streams get keep-alives from
 * the same registry's sweep.
 */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../core/gateway-error.js';
import { LinkedEntries } from '../core/linked-entries.js';
import type { Abortable, LiveStreamRegistry } from '../core/live-stream-registry.js';
import { StreamKeepAlive } from './stream-keep-alive.js';

export type { Abortable } from '../core/live-stream-registry.js';

/** How long aborted streams get to write their error frame and end. */
const abortSettleMs = 1_000;

/**
 * After the streams: how long other busy connections (a request body still arriving, a models list)
 * get before they are closed, so that none holds the shutdown until its own timeout.
 */
export const lingeringConnectionsMs = 1_000;

/** The longest a close takes past the grace period, whatever the clients and upstreams do. */
export const shutdownOverrunMs = abortSettleMs + lingeringConnectionsMs;

export class LiveStreams implements LiveStreamRegistry {
  /** A list, not a Set: one entry per request in a long-lived registry (src/core/linked-entries.ts says why). */
  private readonly generations = new LinkedEntries<Abortable>();
  private idleWaiters: (() => void)[] = [];

  /** `keepAlive` defaults to none (keep-alives disabled). */
  constructor(readonly keepAlive: StreamKeepAlive = new StreamKeepAlive(0)) {}

  get size(): number {
    return this.generations.size;
  }

  /** Registers a generation; the returned function removes it when it is done. */
  add(generation: Abortable): () => void {
    const entry = this.generations.add(generation);
    return () => {
      this.generations.remove(entry);
      if (this.generations.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    };
  }

  async drain(graceMs: number): Promise<void> {
    await this.waitForIdle(graceMs);
    if (this.generations.size === 0) return;
    // A GatewayError as the reason: whatever the abort interrupts reports the shutdown, not a client that left.
    const reason = gatewayError('server_shutting_down', {});
    for (const generation of this.generations) generation.abort(reason);
    // Aborted streams still write their last frame and end. Waiting for that lets server.close(), which
    // runs next, find their connections idle and close them, instead of waiting out each client's keep-alive.
    await this.waitForIdle(abortSettleMs);
  }

  private async waitForIdle(timeoutMs: number): Promise<void> {
    if (this.generations.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

export function registerLiveStreams(app: FastifyInstance, liveStreams: LiveStreams, graceMs: number): void {
  app.addHook('preClose', async () => {
    await liveStreams.drain(graceMs);
    // server.close(), which runs next, closes idle connections and waits for the busy ones.
    const timer = setTimeout(() => app.server.closeAllConnections(), lingeringConnectionsMs);
    timer.unref();
    app.server.once('close', () => clearTimeout(timer));
  });
}
