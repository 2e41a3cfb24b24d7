/**
 * Keeps quiet SSE streams alive: one shared sweep over the live streams sends a keep-alive frame on
 * every stream that has written nothing for the idle interval (a model thinking for minutes), before a
 * proxy or load balancer between the gateway and its client cuts the idle connection.
 */

import { LinkedEntries } from '../core/linked-entries.js';
import type { KeepAliveTarget, KeepAliveWatcher } from '../core/live-stream-registry.js';

export type { KeepAliveTarget } from '../core/live-stream-registry.js';

/** Sweeps per idle interval: a quiet stream is pinged after between 1 and 1 + 1/sweepsPerInterval intervals. */
const sweepsPerInterval = 4;

export class StreamKeepAlive implements KeepAliveWatcher {
  /**
   * Each watched stream with the number of consecutive sweeps that found it quiet: a list, not a Map,
   * since streams come and go per request (src/core/linked-entries.ts says why).
   */
  private readonly quietSweeps = new LinkedEntries<{ target: KeepAliveTarget; quiet: number }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweep = () => this.pingQuietStreams();

  /** `idleMs` 0 disables keep-alives. */
  constructor(private readonly idleMs: number) {}

  /** Watches a stream whose headers are sent; the returned function stops watching it. */
  watch(target: KeepAliveTarget): () => void {
    if (this.idleMs <= 0) return noop;
    const entry = this.quietSweeps.add({ target, quiet: 0 });
    // The timer runs only while a stream is live, so an idle gateway never wakes up for it.
    if (!this.timer) {
      this.timer = setInterval(this.sweep, Math.max(1, Math.round(this.idleMs / sweepsPerInterval)));
      this.timer.unref();
    }
    return () => {
      this.quietSweeps.remove(entry);
      if (this.quietSweeps.size === 0) this.stop();
    };
  }

  get size(): number {
    return this.quietSweeps.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * A mark set on each write, read once a sweep, instead of a clock read per frame or a timer per
   * stream reset on every write: the hot path pays one boolean store.
   */
  private pingQuietStreams(): void {
    for (const watched of this.quietSweeps) {
      if (watched.target.takeActivity()) {
        watched.quiet = 0;
      } else if (watched.quiet + 1 >= sweepsPerInterval) {
        watched.target.ping();
        watched.quiet = 0;
      } else {
        watched.quiet++;
      }
    }
  }
}

function noop(): void {}
