/** A per-window counter family in Redis, through rate-limiter-flexible's RateLimiterRedis (its Lua INCR with TTL, one round trip an operation). */
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { WindowCount, WindowCounter } from './limit-counters.js';

const nothingConsumed: WindowCount = { consumedPoints: 0, msBeforeNext: 0 };

export class RedisWindowCounter implements WindowCounter {
  private readonly limiter: RateLimiterRedis;

  constructor(client: Redis, keyPrefix: string, points: number, durationSeconds: number) {
    // Not ready: reject at once (no waiting on a reconnect), so that limits fail open or closed promptly.
    this.limiter = new RateLimiterRedis({ storeClient: client, keyPrefix, points, duration: durationSeconds, rejectIfRedisNotReady: true });
  }

  add(key: string, points: number): Promise<WindowCount> {
    // penalty and reward count without refusing: the caller compares the count with its limit.
    return points >= 0 ? this.limiter.penalty(key, points) : this.limiter.reward(key, -points);
  }

  async read(key: string): Promise<WindowCount> {
    return (await this.limiter.get(key)) ?? nothingConsumed;
  }
}
