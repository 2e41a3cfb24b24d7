/**
 * A streamed upstream reply (2xx headers arrived), read as SSE events or NDJSON values, one array per
 * upstream read: a read often carries many events, and one generator step per read (not per event)
 * keeps the per-chunk cost down. Each event or line is capped at the provider's `maxEventBytes`; any
 * failure while reading comes out as a GatewayError (a cancellation's own reason when it fired).
 * The body is released when the loop ends, unless `complete()` was called first (the reply is whole:
 * what is left is drained so the connection goes back to the pool).
 */
import type { Readable } from 'node:stream';
import type { Cancellation } from '../core/cancellation.js';
import { NdjsonDecoder } from './ndjson-decoder.js';
import { SseDecoder, type ServerSentEvent } from './sse-decoder.js';
import { errorFromTransportFailure } from './upstream-error.js';

export type UpstreamStreamOptions = { provider: string; maxEventBytes: number; cancellation: Cancellation | undefined };

/** What a decoder must do: bytes in, items out, and what is left when the body ends. */
type ChunkDecoder<Item> = { push(chunk: Uint8Array | string): Item[]; finish(): Item[] };

const ignoreError = () => undefined;
const drainLimitBytes = 64 * 1024;
const drainTimeoutMs = 2_000;

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
class UpstreamBody {
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

export class UpstreamStream {
  private readonly body: UpstreamBody;

  constructor(
    readable: Readable,
    private readonly options: UpstreamStreamOptions,
  ) {
    this.body = new UpstreamBody(readable);
  }

  /**
   * `unfinished`: what an event left without its blank line when the body ends becomes: `drop` (WHATWG)
   * or `flush` (lenient: some servers end the stream right after the last `data:` line).
   */
  serverSentEvents(unfinished: 'drop' | 'flush'): AsyncGenerator<ServerSentEvent[]> {
    const decoder = new SseDecoder({ maxEventBytes: this.options.maxEventBytes, provider: this.options.provider });
    if (unfinished === 'flush') return this.decode(decoder);
    return this.decode({ push: (chunk) => decoder.push(chunk), finish: () => (decoder.end(), []) });
  }

  /** The parsed values of an NDJSON body (a line that is not JSON is a 502); a last line without its line end counts. */
  jsonLines(): AsyncGenerator<unknown[]> {
    return this.decode(new NdjsonDecoder({ maxEventBytes: this.options.maxEventBytes, provider: this.options.provider }));
  }

  /** The reply is complete: drain what is left in the background, keeping the connection. */
  complete(): void {
    this.body.complete();
  }

  /** An early exit: the upstream sees the abort. A no-op after complete(). */
  release(): void {
    this.body.release();
  }

  private async *decode<Item>(decoder: ChunkDecoder<Item>): AsyncGenerator<Item[]> {
    try {
      for await (const chunk of this.body.chunks()) {
        const items = decoder.push(chunk);
        if (items.length > 0) yield items;
      }
      const rest = decoder.finish();
      if (rest.length > 0) yield rest;
    } catch (error) {
      // Body timeout, reset connection, abort, an event past the cap: the reply is cut, not complete.
      throw errorFromTransportFailure(error, this.options.provider, this.options.cancellation);
    } finally {
      this.body.release();
    }
  }
}
