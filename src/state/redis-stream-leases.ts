/**
 * Concurrent-stream slots in Redis that a dead replica cannot leak: each live stream holds a lease, a
 * member of a sorted set per key scored by its expiry. Taking one is a Lua script (atomic on the Redis
 * side) that drops expired members, counts the rest and adds the new one only under the limit; a
 * heartbeat (one timer per replica, every third of the lease) pushes the expiry of every lease this
 * replica holds; releasing removes the member. Expiries are in Redis's clock (TIME), so replicas'
 * clocks need not agree. A replica killed mid-stream stops heart-beating: its slots are free again
 * one lease later.
 */
import type { Redis } from 'ioredis';
import { randomHex } from '../core/random-id.js';
import type { Logger } from '../core/logger.js';
import type { SlotLease, StreamSlots } from './limit-counters.js';

/** KEYS[1] the key's set; ARGV: lease ms, limit, member. 1 when taken, 0 when all slots are held. */
const acquireScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease)
return 1`;

/** KEYS[1] the key's set; ARGV: lease ms, then this replica's members. XX: a lease that expired meanwhile is not revived. */
const heartbeatScript = `
local time = redis.call('TIME')
local expiry = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[1])
for index = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[index]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

type LeaseCommands = {
  interlinguaAcquireLease(key: string, leaseMs: number, limit: number, member: string): Promise<number>;
  interlinguaRenewLeases(key: string, leaseMs: number, ...members: string[]): Promise<number>;
};

export function defineLeaseCommands(client: Redis): Redis & LeaseCommands {
  // defineCommand sends EVALSHA and falls back to EVAL when Redis does not know the script yet.
  client.defineCommand('interlinguaAcquireLease', { numberOfKeys: 1, lua: acquireScript });
  client.defineCommand('interlinguaRenewLeases', { numberOfKeys: 1, lua: heartbeatScript });
  return client as Redis & LeaseCommands;
}

class RedisLease implements SlotLease {
  private released = false;

  constructor(
    private readonly keeper: LeaseKeeper,
    readonly setKey: string,
    readonly member: string,
  ) {}

  release(): Promise<void> {
    if (this.released) return Promise.resolve();
    this.released = true;
    return this.keeper.drop(this);
  }
}

/** The leases this replica holds, by set, and the one heartbeat that keeps them alive. */
export class LeaseKeeper {
  private readonly held = new Map<string, Set<string>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly replica = randomHex(8);
  private sequence = 0;

  constructor(
    private readonly client: Redis & LeaseCommands,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  async acquire(setKey: string, limit: number): Promise<SlotLease | undefined> {
    const member = `${this.replica}:${++this.sequence}`;
    if ((await this.client.interlinguaAcquireLease(setKey, this.leaseMs, limit, member)) !== 1) return undefined;
    let members = this.held.get(setKey);
    if (!members) this.held.set(setKey, (members = new Set()));
    members.add(member);
    this.heartbeat ??= setInterval(() => this.renew(), Math.max(1, Math.floor(this.leaseMs / 3))).unref();
    return new RedisLease(this, setKey, member);
  }

  async drop(lease: RedisLease): Promise<void> {
    const members = this.held.get(lease.setKey);
    members?.delete(lease.member);
    if (members?.size === 0) this.held.delete(lease.setKey);
    if (this.held.size === 0) this.stop();
    await this.client.zrem(lease.setKey, lease.member);
  }

  /** A failed renewal is only logged: the stream goes on, and its slot frees itself at the lease's end. */
  private renew(): void {
    for (const [setKey, members] of this.held) {
      this.client
        .interlinguaRenewLeases(setKey, this.leaseMs, ...members)
        .catch((error: unknown) => this.log.debug({ err: error }, 'stream slots: heartbeat failed'));
    }
  }

  stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

/** One family's slots (`key:streams`), each key a set of its own. */
export class RedisStreamSlots implements StreamSlots {
  constructor(
    private readonly keeper: LeaseKeeper,
    private readonly keyPrefix: string,
  ) {}

  acquire(key: string, limit: number): Promise<SlotLease | undefined> {
    return this.keeper.acquire(`${this.keyPrefix}${key}`, limit);
  }
}
