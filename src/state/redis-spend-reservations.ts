/**
 * Budget reservations in Redis, shared by every replica: one sorted set per key name of the requests in
 * flight, each member `replica:sequence:points` scored by its expiry. Reserving is a Lua script (atomic on
 * the Redis side): it drops expired members, reads the budget's spend counter (the integer rate-limiter-flexible's
 * INCRBY keeps, src/state/redis-window-counter.ts), sums what the rest reserve, and adds the request's member
 * only when the budget admits it. Releasing removes the member. A replica that dies mid-request leaves its
 * reservations behind for one lease at most (their expiry, in Redis's clock), never for good; while its
 * request runs, the replica renews the lease every half lease, so a stream longer than a lease stays reserved.
 */
import type { Redis } from 'ioredis';
import { randomHex } from '../core/random-id.js';
import type { SpendReservation } from '../core/spend-reservation.js';
import type { SharedSpendReservations, SpendReservationRequest } from './limit-counters.js';

/** Lua: `now` (Redis's clock, ms) and `reserved`, the sum of the points (`…:points`) of `setKey`'s unexpired members. */
const sumLiveReservations = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local reserved = 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', setKey, '(' .. now, '+inf')) do
  reserved = reserved + tonumber(string.match(member, '(%d+)$'))
end`;

/**
 * KEYS[1] the spend counter, KEYS[2] the key's reservations; ARGV: budget points, estimate points, member,
 * lease ms. 1 when reserved, 0 when refused: spend at the budget, or requests in flight whose reservations
 * with this one's pass it (a lone request is admitted while spend is under the budget, as without reservations).
 */
const reserveScript = `
local setKey = KEYS[2]${sumLiveReservations}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local budget = tonumber(ARGV[1])
local estimate = tonumber(ARGV[2])
if spent >= budget or (reserved > 0 and spent + reserved + estimate > budget) then return 0 end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;

/** KEYS[1] the key's reservations: what they reserve, expired ones left out. */
const reservedScript = `
local setKey = KEYS[1]${sumLiveReservations}
return reserved`;

/**
 * KEYS[1] the key's reservations; ARGV: member, lease ms. Moves a member's expiry one lease on from now,
 * only while it is there and unexpired: one that expired or was released is not brought back.
 */
const renewScript = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
  interlinguaReservedSpend(setKey: string): Promise<number>;
  interlinguaRenewReservation(setKey: string, member: string, leaseMs: number): Promise<number>;
};

class RedisSpendReservation implements SpendReservation {
  private released = false;
  /** Renews the lease every half lease while the request runs; unref'd, so it never holds the process open. */
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly client: Redis & ReservationCommands,
    private readonly setKey: string,
    private readonly member: string,
    leaseMs: number,
  ) {
    // A renewal that fails (Redis down) leaves the lease to run out, as for a replica that died.
    this.renewal = setInterval(() => {
      client.interlinguaRenewReservation(setKey, member, leaseMs).catch(() => undefined);
    }, leaseMs / 2);
    this.renewal.unref();
  }

  /** A release that fails (Redis down) is no one's error: the reservation expires with its lease. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.renewal);
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
    client.defineCommand('interlinguaReservedSpend', { numberOfKeys: 1, lua: reservedScript });
    client.defineCommand('interlinguaRenewReservation', { numberOfKeys: 1, lua: renewScript });
    this.client = client as Redis & ReservationCommands;
  }

  async reserve(request: SpendReservationRequest): Promise<SpendReservation | undefined> {
    // The spend counter's key as RedisWindowCounter's limiter writes it (`${prefix}limits:${name}` + ':' + key).
    const spendKey = `${this.keyPrefix}limits:${request.counter}:${request.countKey}`;
    const setKey = this.setKeyOf(request.holder);
    // The script reads a member's points as its last digits, so they must be written as an integer: String(2e21)
    // is '2e+21', Infinity has no digits. An estimate past the budget decides as the budget plus one does
    // (refused beside any reservation; held, it leaves nothing), so it is held as that.
    const points = Math.min(request.estimatePoints, request.budgetPoints + 1);
    const member = `${this.replica}:${++this.sequence}:${points}`;
    const reserved = await this.client.interlinguaReserveSpend(spendKey, setKey, request.budgetPoints, points, member, this.leaseMs);
    return reserved === 1 ? new RedisSpendReservation(this.client, setKey, member, this.leaseMs) : undefined;
  }

  /** The points the holder's requests in flight reserve now, on every replica (expired leases left out). */
  reservedPoints(holder: string): Promise<number> {
    return this.client.interlinguaReservedSpend(this.setKeyOf(holder));
  }

  private setKeyOf(holder: string): string {
    return `${this.keyPrefix}reservations:${holder}`;
  }
}
