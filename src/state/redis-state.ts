/**
 * Shared state in Redis (ioredis): rate-limit windows through rate-limiter-flexible's RateLimiterRedis,
 * concurrent-stream slots as leases with a heartbeat, stored responses as keyed JSON with a TTL. Every command is bounded so that an outage is a quick
 * error, never a hang: no offline queue (a command while disconnected fails at once), no retry of a
 * command whose connection dropped, a command timeout; the client itself reconnects forever.
 */
import { Redis } from 'ioredis';
import type { StateSettings } from '../config/config-types.js';
import type { Logger } from '../core/logger.js';
import type { DocumentStore } from '../core/document-store.js';
import { defineLeaseCommands, LeaseKeeper, RedisStreamSlots } from './redis-stream-leases.js';
import { RedisSpendReservations } from './redis-spend-reservations.js';
import { RedisUsageLog } from './redis-usage-log.js';
import { RedisWindowCounter } from './redis-window-counter.js';
import type { RedisState } from './shared-state.js';

/**
 * How long a budget reservation counts at most: released when its request ends, it outlives only a replica
 * that died holding it. A request that runs longer keeps it: its replica renews the lease every half lease
 * (src/state/redis-spend-reservations.ts).
 */
const spendReservationLeaseMs = 15 * 60_000;

/** Reconnect soon after a blip, then every two seconds at most while Redis stays down. */
function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 2_000);
}

/** Where Redis is, for log lines: host and port only (the URL may hold a password). */
function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

class RedisDocuments implements DocumentStore {
  constructor(private readonly client: Redis) {}

  get available(): boolean {
    return this.client.status === 'ready';
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(key)) ?? undefined;
  }

  async set(entries: readonly (readonly [string, string])[], ttlMs: number): Promise<void> {
    const transaction = this.client.multi();
    for (const [key, value] of entries) transaction.set(key, value, 'PX', ttlMs);
    const results = await transaction.exec();
    const failed = results?.find(([error]) => error !== null);
    if (!results || failed) throw failed?.[0] ?? new Error('the Redis transaction was discarded');
  }

  async delete(key: string): Promise<boolean> {
    return (await this.client.del(key)) > 0;
  }
}

export function createRedisState(settings: StateSettings & { redis: string }, logger: Logger): RedisState {
  const address = redisAddress(settings.redis);
  const client = new Redis(settings.redis, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: settings.connectTimeoutMs,
    retryStrategy: reconnectDelay,
    // A request's limit checks are sent in the same tick: one write to Redis for all of them.
    enableAutoPipelining: true,
  });
  // Log the transitions, not every failed reconnect (one every two seconds while Redis is down).
  let down = false;
  let closing = false;
  const reportDown = (error?: Error): void => {
    if (down || closing) return;
    down = true;
    logger.warn(
      { err: error, redis: address },
      'shared state: Redis unreachable; stored responses answer 503 and limits fail ' + settings.onRedisError,
    );
  };
  client.on('error', reportDown);
  // A Redis that goes away is not always an 'error' (a clean close, or a reconnect that has not failed yet).
  client.on('close', () => reportDown());
  client.on('ready', () => {
    if (down) logger.info({ redis: address }, 'shared state: Redis reachable again');
    down = false;
  });

  const leases = new LeaseKeeper(defineLeaseCommands(client), settings.streamLeaseSeconds * 1000, logger);

  return {
    kind: 'redis',
    onError: settings.onRedisError,
    documents: new RedisDocuments(client),
    usage: new RedisUsageLog(client, settings.keyPrefix, logger),
    spendReservations: new RedisSpendReservations(client, settings.keyPrefix, spendReservationLeaseMs),
    windowCounter: ({ name, points, durationSeconds }) =>
      new RedisWindowCounter(client, `${settings.keyPrefix}limits:${name}`, points, durationSeconds),
    streamSlots: (name) => new RedisStreamSlots(leases, `${settings.keyPrefix}leases:${name}:`),
    problem: async () => {
      if (client.status !== 'ready') return `Redis at ${address} is not connected (${client.status}).`;
      try {
        await client.ping();
        return undefined;
      } catch (error) {
        return `Redis at ${address} does not answer: ${(error as Error).message}.`;
      }
    },
    connect: async () => {
      // Waits for the first connection, at most the connect timeout: a replica up before its Redis starts
      // anyway (and says so on /ready). Failures surface through 'error' and the reconnect loop.
      const connected = client.connect().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, settings.connectTimeoutMs)));
      await Promise.race([connected, waited]);
      clearTimeout(timer);
    },
    close: async () => {
      closing = true;
      leases.stop();
      client.disconnect();
    },
  };
}
