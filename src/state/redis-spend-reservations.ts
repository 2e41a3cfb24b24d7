/**
 * Budget reservations in Redis, shared by every replica: one sorted set per key name of the requests in
 * flight, each member `replica:sequence:points` scored by its expiry. Reserving is a Lua script (atomic on
 * the Redis side): it drops expired members, reads the budget's spend counter (the integer rate-limiter-flexible's
 * INCRBY keeps, src/state/redis-window-counter.ts), sums what the rest reserve, and adds the request's member
 * only when the budget admits it. Releasing removes the member. A replica that dies mid-request leaves its
 * reservations behind for one lease at most (their expiry, in Redis's clock), never for good.
 */
import type { Redis } from 'ioredis';
import { randomHex } from '../core/random-id.js';
import type { SpendReservation } from '../core/spend-reservation.js';
import type { SharedSpendReservations, SpendReservationRequest } from './limit-counters.js';

/**
 * KEYS[1] the spend counter, KEYS[2] the key's reservations; ARGV: budget points, estimate points, member,
 * lease ms. 1 when reserved, 0 when refused: spend at the budget, or requests in flight whose reservations
 * with this one's pass it (a lone request is admitted while spend is under the budget, as without reservations).
 */
const reserveScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local budget = tonumber(ARGV[1])
local estimate = tonumber(ARGV[2])
local reserved = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  reserved = reserved + tonumber(string.match(member, '(%d+)$'))
end
if spent >= budget or (reserved > 0 and spent + reserved + estimate > budget) then return 0 end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;

type ReservationCommands = {
  interlinguaReserveSpend(
    spendKey: string,
    setKey: string,
    budget: number,
    estimate: number,
    member: string,
    leaseMs: number,
  ): Promise<number>;
};

class RedisSpendReservation implements SpendReservation {
  private released = false;

  constructor(
    private readonly client: Redis,
    private readonly setKey: string,
    private readonly member: string,
  ) {}

  /** A release that fails (Redis down) is no one's error: the reservation expires with its lease. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.client.zrem(this.setKey, this.member).catch(() => undefined);
  }
}

export class RedisSpendReservations implements SharedSpendReservations {
  private readonly client: Redis & ReservationCommands;
  private readonly replica = randomHex(8);
  private sequence = 0;

  /** `keyPrefix`: the state's (`interlingua:`); `leaseMs`: how long a reservation outlives a replica that died holding it. */
  constructor(
    client: Redis,
    private readonly keyPrefix: string,
    private readonly leaseMs: number,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL when Redis does not know the script yet.
    client.defineCommand('interlinguaReserveSpend', { numberOfKeys: 2, lua: reserveScript });
    this.client = client as Redis & ReservationCommands;
  }

  async reserve(request: SpendReservationRequest): Promise<SpendReservation | undefined> {
    // The spend counter's key as RedisWindowCounter's limiter writes it (`${prefix}limits:${name}` + ':' + key).
    const spendKey = `${this.keyPrefix}limits:${request.counter}:${request.countKey}`;
    const setKey = `${this.keyPrefix}reservations:${request.holder}`;
    const member = `${this.replica}:${++this.sequence}:${request.estimatePoints}`;
    const reserved = await this.client.interlinguaReserveSpend(
      spendKey,
      setKey,
      request.budgetPoints,
      request.estimatePoints,
      member,
      this.leaseMs,
    );
    return reserved === 1 ? new RedisSpendReservation(this.client, setKey, member) : undefined;
  }
}
