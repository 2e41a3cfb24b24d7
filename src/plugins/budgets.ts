/**
 * Spend limits per client key: what each key's replies cost (the price table's figure) is added to
 * counters for the key's UTC day, week (from Monday) and month, in the shared state (Redis when configured,
 * so replicas enforce one budget together). A key at or over its budget is refused before any upstream is
 * asked: 429 `budget_exceeded` in the API's envelope, with the budget, what is left and when it resets. A
 * stream that crosses the budget finishes; the next request is refused. What is left, in the headers and in
 * GET /v1/usage, is the budget less the spend and what the key's requests in flight reserved: what a client
 * deciding whether to send more can still use.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Budget } from '../config/config-types.js';
import { gatewayError } from '../core/gateway-error.js';
import type { SharedState } from '../state/shared-state.js';
import { isPromise, type MaybePromise, type WindowCount, type WindowCounter } from '../state/limit-counters.js';
import type { SpendReservation } from '../core/spend-reservation.js';
import type { ChatInput } from '../core/chat-request.js';
import type { EmbeddingRequest } from '../core/provider-adapter.js';
import type { AccessPolicy } from '../pipeline/access-policy.js';
import { requestContextOf, type BudgetHolder } from '../pipeline/request-context.js';
import { isLimitedRoute } from './rate-limits-hook.js';

/**
 * Spend is counted in millionths of a dollar: whole points in every store (Redis counts with INCRBY,
 * integers only, and its counts stay readable across versions). What a reply costs below a whole point
 * is carried by the ledger to the key's next reply (BudgetLedger.fractions), not rounded away.
 */
const pointsPerUsd = 1_000_000;
const dayMs = 86_400_000;

export type BudgetPeriod = { start: Date; end: Date; label: string };

/** Every period a budget may count by; spend is counted in each (BudgetLedger.record). */
const periodKinds: readonly Budget['period'][] = ['day', 'week', 'month'];

/** A period as the ledger keeps it between requests: its bounds as numbers, and the reset time as a header writes it. */
type CurrentPeriod = BudgetPeriod & { startMs: number; endMs: number; resetText: string };

/** The UTC period `now` falls in. */
export function budgetPeriod(period: Budget['period'], now: Date): BudgetPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const date = now.getUTCDate();
  switch (period) {
    case 'day': {
      const start = new Date(Date.UTC(year, month, date));
      return { start, end: new Date(start.getTime() + dayMs), label: start.toISOString().slice(0, 10) };
    }
    case 'week': {
      // getUTCDay: 0 is Sunday; weeks start on Monday (ISO 8601).
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      const start = new Date(Date.UTC(year, month, date - sinceMonday));
      return { start, end: new Date(start.getTime() + 7 * dayMs), label: `week-${start.toISOString().slice(0, 10)}` };
    }
    case 'month': {
      const start = new Date(Date.UTC(year, month, 1));
      return { start, end: new Date(Date.UTC(year, month + 1, 1)), label: start.toISOString().slice(0, 7) };
    }
  }
}

/**
 * `reservedUsd`: what the key's requests in flight reserved; `remainingUsd`: the budget less the spend and
 * that (never below zero). A request is refused outright only once the spend reaches the budget: what
 * is reserved is given back as requests end, and a chat's own reservation decides beside it.
 */
export type BudgetStatus = {
  budget: Budget;
  spentUsd: number;
  reservedUsd: number;
  remainingUsd: number;
  resetsAt: Date;
  resetText: string;
};

/** In-process spend by period kind; kept by the process across config reloads (src/live-gateway.ts). */
export type InProcessSpend = Map<Budget['period'], WindowCounter>;

/**
 * What a budget keeps in process across config reloads (src/live-gateway.ts): the spend, and the points
 * each key's requests in flight reserved (by key name), so that a burst spanning a reload stays within the
 * budget: the old app's requests release into the same map the new app's admit against.
 */
export type InProcessBudgetState = { spend: InProcessSpend; reservedPoints: Map<string, number> };

export function createInProcessBudgetState(): InProcessBudgetState {
  return { spend: new Map(), reservedPoints: new Map() };
}

/** Spend below a whole point not yet in the store, for one key's current period. */
type CarriedFraction = { label: string; points: number };

export class BudgetLedger {
  private readonly counters: Map<Budget['period'], WindowCounter>;
  /** The period each kind is in, worked out when it turns rather than per request (dates and ISO strings cost µs). */
  private readonly periods = new Map<Budget['period'], CurrentPeriod>();
  /**
   * By period kind and key name (so bounded by the configured keys): the part of a point each key has spent
   * and the store has not counted. Without it a request of 10 tokens at $0.05 per million ($0.0000005)
   * rounded to nothing or to double, and many cheap requests never reached a budget. What this replica
   * carries is at most one point per key (lost on a reload or restart: under a millionth of a dollar).
   */
  private readonly fractions = new Map<string, CarriedFraction>();

  /** In process: the points each key's requests in flight reserved (by key name, so bounded by the configured keys). */
  private readonly reservedPoints: Map<string, number>;

  /**
   * `now`: milliseconds since the epoch. `inProcess`: where in-process totals and reservations live (a
   * reload's new app keeps counting on them); fresh when absent.
   */
  constructor(
    private readonly state: SharedState,
    private readonly now: () => number = Date.now,
    inProcess?: InProcessBudgetState,
  ) {
    // Redis counters and reservations belong to the shared store; in-process ones may outlive the app.
    const lasting = state.kind === 'in-process' ? inProcess : undefined;
    this.counters = lasting?.spend ?? new Map();
    this.reservedPoints = lasting?.reservedPoints ?? new Map();
  }

  status(holder: BudgetHolder): MaybePromise<BudgetStatus> {
    const period = this.periodOf(holder.budget.period);
    const count = this.counter(holder.budget.period).read(this.key(holder.name, period));
    if (this.state.kind === 'in-process' || !isPromise(count)) {
      const reserved = this.reservedPoints.get(holder.name) ?? 0;
      return isPromise(count)
        ? count.then((read) => this.statusOf(holder, period, read, reserved))
        : this.statusOf(holder, period, count, reserved);
    }
    // Two reads side by side: the request waits for one round trip, as before.
    return Promise.all([count, this.state.spendReservations.reservedPoints(holder.name)]).then(([read, reserved]) =>
      this.statusOf(holder, period, read, reserved),
    );
  }

  /**
   * Adds a reply's cost to the key's current day, week and month, whichever its budget counts by: a reload
   * that changes the budget's period (a daily budget made monthly) then finds the spend already made in the
   * new period, rather than a period counted from zero. A store that fails is logged, never the reply's problem.
   */
  record(holder: BudgetHolder, costUsd: number, log: { warn(details: object, message: string): void }): void {
    if (!(costUsd > 0)) return;
    for (const kind of periodKinds) this.recordIn(kind, holder.name, costUsd, log);
  }

  /**
   * Admits a request against its key's budget and what the key's requests in flight reserved, and reserves
   * `estimateUsd` (what it may cost, src/pipeline/reservation-estimate.ts), in one step (atomic in Redis).
   * `refused`: the budget cannot take it. Undefined: admitted with nothing reserved (an unpriced model,
   * undefined estimate). The caller releases the reservation once the real cost is recorded (or the request
   * failed); the spend counts from then on instead.
   */
  reserve(holder: BudgetHolder, estimateUsd: number | undefined): MaybePromise<SpendReservation | 'refused' | undefined> {
    if (estimateUsd === undefined || !(estimateUsd > 0)) return undefined;
    const estimatePoints = Math.ceil(estimateUsd * pointsPerUsd);
    const budgetPoints = Math.round(holder.budget.usd * pointsPerUsd);
    const kind = holder.budget.period;
    const countKey = this.key(holder.name, this.periodOf(kind));
    if (this.state.kind === 'redis') {
      const request = { counter: `budget:${kind}`, countKey, holder: holder.name, budgetPoints, estimatePoints };
      return this.state.spendReservations.reserve(request).then((reservation) => reservation ?? 'refused');
    }
    // In process the read and the reservation happen in one turn: nothing runs between them.
    const spent = (this.counter(kind).read(countKey) as WindowCount).consumedPoints;
    const reserved = this.reservedPoints.get(holder.name) ?? 0;
    if (!admitsReservation(spent, reserved, estimatePoints, budgetPoints)) return 'refused';
    this.reservedPoints.set(holder.name, reserved + estimatePoints);
    return new InProcessReservation(this.reservedPoints, holder.name, estimatePoints);
  }

  private recordIn(kind: Budget['period'], name: string, costUsd: number, log: { warn(details: object, message: string): void }): void {
    const period = this.periodOf(kind);
    const fraction = this.fractionOf(kind, name, period);
    const exact = fraction.points + costUsd * pointsPerUsd;
    const points = Math.floor(exact);
    fraction.points = exact - points;
    if (points === 0) return;
    const added = this.counter(kind).add(this.key(name, period), points);
    if (isPromise(added))
      added.catch((error: unknown) => log.warn({ key: name, error: (error as Error).message }, 'recording spend failed'));
  }

  private periodOf(kind: Budget['period']): CurrentPeriod {
    const nowMs = this.now();
    const cached = this.periods.get(kind);
    if (cached && nowMs >= cached.startMs && nowMs < cached.endMs) return cached;
    const period = budgetPeriod(kind, new Date(nowMs));
    const current = { ...period, startMs: period.start.getTime(), endMs: period.end.getTime(), resetText: period.end.toISOString() };
    this.periods.set(kind, current);
    return current;
  }

  /** The key's carried fraction for the current period of a kind: a new period starts it at zero. */
  private fractionOf(kind: Budget['period'], name: string, period: CurrentPeriod): CarriedFraction {
    const id = `${kind}\u0000${name}`;
    let fraction = this.fractions.get(id);
    if (!fraction) {
      fraction = { label: period.label, points: 0 };
      this.fractions.set(id, fraction);
    } else if (fraction.label !== period.label) {
      fraction.label = period.label;
      fraction.points = 0;
    }
    return fraction;
  }

  private statusOf(holder: BudgetHolder, period: CurrentPeriod, count: WindowCount, reservedPoints: number): BudgetStatus {
    const carried = this.fractions.get(`${holder.budget.period}\u0000${holder.name}`);
    const spentUsd = (count.consumedPoints + (carried?.label === period.label ? carried.points : 0)) / pointsPerUsd;
    const reservedUsd = reservedPoints / pointsPerUsd;
    return {
      budget: holder.budget,
      spentUsd,
      reservedUsd,
      remainingUsd: Math.max(0, holder.budget.usd - spentUsd - reservedUsd),
      resetsAt: period.end,
      resetText: period.resetText,
    };
  }

  /** The period's start is in the key: a new period counts from zero, and the old count expires with its window. */
  private key(name: string, period: BudgetPeriod): string {
    return `${name}:${period.label}`;
  }

  private counter(period: Budget['period']): WindowCounter {
    let counter = this.counters.get(period);
    if (!counter && this.state.kind === 'in-process') {
      // Not the in-process window counter: its expiry is a timer, and Node fires a timer longer than
      // 24.8 days (a month's window) at once. Here the period is in the key, so nothing needs to expire.
      counter = new SpendTotals();
      this.counters.set(period, counter);
    } else if (!counter) {
      // The window outlives the longest period by a day: a count is never dropped before its period ends.
      const durationSeconds = { day: 2, week: 8, month: 32 }[period] * 86_400;
      counter = this.state.windowCounter({ name: `budget:${period}`, points: Number.MAX_SAFE_INTEGER, durationSeconds });
      this.counters.set(period, counter);
    }
    return counter;
  }
}

/**
 * The rule the Redis script keeps too (src/state/redis-spend-reservations.ts): no spend left refuses; a lone
 * request is admitted while spend is under the budget (it may cross it, as one reply always could); with
 * others in flight, only when spent + reserved + its estimate stays within the budget, so that concurrent
 * requests cannot together pass it by more than one request's estimate errs.
 */
function admitsReservation(spent: number, reserved: number, estimate: number, budget: number): boolean {
  return spent < budget && (reserved === 0 || spent + reserved + estimate <= budget);
}

class InProcessReservation implements SpendReservation {
  private released = false;

  constructor(
    private readonly reservedPoints: Map<string, number>,
    private readonly holder: string,
    private readonly points: number,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    const left = (this.reservedPoints.get(this.holder) ?? 0) - this.points;
    if (left > 0) this.reservedPoints.set(this.holder, left);
    else this.reservedPoints.delete(this.holder);
  }
}

/** Spend per key and period in this process, for budgets without Redis; a period's totals go when the next begins. */
class SpendTotals implements WindowCounter {
  private readonly totals = new Map<string, number>();
  private currentLabel = '';

  add(key: string, points: number): WindowCount {
    const label = key.slice(key.lastIndexOf(':') + 1);
    if (label !== this.currentLabel) {
      if (label > this.currentLabel) for (const stale of this.totals.keys()) if (!stale.endsWith(`:${label}`)) this.totals.delete(stale);
      this.currentLabel = label > this.currentLabel ? label : this.currentLabel;
    }
    const consumedPoints = (this.totals.get(key) ?? 0) + points;
    this.totals.set(key, consumedPoints);
    return { consumedPoints, msBeforeNext: 0 };
  }

  read(key: string): WindowCount {
    return { consumedPoints: this.totals.get(key) ?? 0, msBeforeNext: 0 };
  }
}

/** The reply's budget headers: the budget, what is left, and when it resets. */
export function budgetHeaders(status: BudgetStatus): Record<string, string> {
  return {
    'x-interlingua-budget-usd': String(status.budget.usd),
    'x-interlingua-budget-remaining-usd': status.remainingUsd.toFixed(6),
    'x-interlingua-budget-reset': status.resetText,
  };
}

function admitWithin(request: FastifyRequest, reply: FastifyReply, holder: BudgetHolder, status: BudgetStatus): void {
  const headers = budgetHeaders(status);
  void reply.headers(headers);
  if (status.spentUsd < status.budget.usd) {
    holder.headers = headers;
    holder.remainingUsd = status.remainingUsd;
    requestContextOf(request).budget = holder;
    return;
  }
  void reply.header('retry-after', String(Math.max(1, Math.ceil((status.resetsAt.getTime() - Date.now()) / 1000))));
  throw budgetExceeded(holder, status);
}

function budgetExceeded(holder: BudgetHolder, status: BudgetStatus): Error {
  return gatewayError('budget_exceeded', {
    message: `The key '${holder.name}' has spent its budget of $${status.budget.usd} for this ${status.budget.period}; it resets at ${status.resetText}.`,
  });
}

/** What a request may cost before it is sent, for its reservation (src/pipeline/reservation-estimate.ts). */
export type BudgetEstimates = {
  /** `access`: the key's policy (a target its `models` do not allow is never reached). */
  chat(input: ChatInput, access?: AccessPolicy | null): number | undefined;
  embedding(model: string, input: EmbeddingRequest['input']): number | undefined;
};

/**
 * A request's reservation (BudgetLedger.reserve), taken by the route once its input is known and before
 * any upstream is asked; the route releases it when the request ends (in a `finally`, so a request that
 * throws never keeps it). Refused: 429 `budget_exceeded`. A store that fails admits unreserved, as reading
 * the budget does. Only called when the request carries a budget (RequestContext.budget).
 */
function reserveBudget(
  ledger: BudgetLedger,
  request: FastifyRequest,
  reply: FastifyReply | undefined,
  estimate: () => number | undefined,
): MaybePromise<SpendReservation | undefined> {
  const holder = request.gatewayContext?.budget;
  if (!holder) return undefined;
  let reserved: MaybePromise<SpendReservation | 'refused' | undefined>;
  try {
    reserved = ledger.reserve(holder, estimate());
  } catch (error) {
    request.log.warn({ key: holder.name, error: (error as Error).message }, 'reserving budget failed; admitted');
    return undefined;
  }
  if (!isPromise(reserved)) return reservationOrRefusal(reply, holder, reserved);
  return reserved.then(
    (answer) => reservationOrRefusal(reply, holder, answer),
    (error: unknown) => {
      request.log.warn({ key: holder.name, error: (error as Error).message }, 'reserving budget failed; admitted');
      return undefined;
    },
  );
}

function reservationOrRefusal(
  reply: FastifyReply | undefined,
  holder: BudgetHolder,
  answer: SpendReservation | 'refused' | undefined,
): SpendReservation | undefined {
  if (answer !== 'refused') return answer;
  // Its requests in flight end soon (or the period turns): a second is the honest guess.
  void reply?.header('retry-after', '1');
  return refuseReserved(holder);
}

function refuseReserved(holder: BudgetHolder): never {
  throw gatewayError('budget_exceeded', {
    message: `The key '${holder.name}' has too little of its budget of $${holder.budget.usd} for this ${holder.budget.period} left for this request beside its requests in flight; retry once they end.`,
  });
}

/** The budget the request's key spends against: its own, else the server's; none when neither is set. */
function holderOf(request: FastifyRequest, serverBudget: Budget | undefined): BudgetHolder | undefined {
  const budget = request.gatewayContext?.access?.budget ?? serverBudget;
  return budget ? { name: request.gatewayContext?.access?.name ?? 'anonymous', budget } : undefined;
}

/** The shared store failed: the request is admitted (and counted when the store is back), as rate limits fail open. */
function admitUnread(request: FastifyRequest, holder: BudgetHolder, error: unknown): void {
  request.log.warn({ key: holder.name, error: (error as Error).message }, 'reading the budget failed; admitted');
  requestContextOf(request).budget = holder;
}

/**
 * A WebSocket turn is no HTTP request of its own: the upgrade (a GET) passed no budget check, so each
 * turn is checked here, and the connection's request then carries the budget its turns' cost counts against.
 */
async function admitTurn(request: FastifyRequest, ledger: BudgetLedger, serverBudget: Budget | undefined): Promise<void> {
  const holder = holderOf(request, serverBudget);
  if (!holder) return;
  let status: BudgetStatus;
  try {
    status = await ledger.status(holder);
  } catch (error) {
    admitUnread(request, holder, error);
    return;
  }
  if (status.spentUsd >= status.budget.usd) throw budgetExceeded(holder, status);
  requestContextOf(request).budget = holder;
}

/**
 * Checks the key's budget before every generating route, when any budget is configured (else no hook
 * runs). `serverBudget` is the budget of keys without their own (and of every request without keys).
 */
export function registerBudgets(
  app: FastifyInstance,
  ledger: BudgetLedger,
  serverBudget: Budget | undefined,
  estimates: BudgetEstimates,
): void {
  app.decorate('budgets', ledger);
  app.decorate('admitTurnBudget', (request: FastifyRequest) => admitTurn(request, ledger, serverBudget));
  app.decorate('reserveBudget', (request: FastifyRequest, reply: FastifyReply | undefined, input: ChatInput) =>
    reserveBudget(ledger, request, reply, () => estimates.chat(input, request.gatewayContext?.access)),
  );
  app.decorate('reserveEmbeddingBudget', (request: FastifyRequest, reply: FastifyReply, model: string, input: EmbeddingRequest['input']) =>
    reserveBudget(ledger, request, reply, () => estimates.embedding(model, input)),
  );
  const check = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    if (request.method !== 'POST') return done();
    const holder = holderOf(request, serverBudget);
    if (!holder) return done();
    try {
      const status = ledger.status(holder);
      if (!isPromise(status)) {
        admitWithin(request, reply, holder, status);
        return done();
      }
      status.then(
        (read) => {
          try {
            admitWithin(request, reply, holder, read);
            done();
          } catch (error) {
            done(error as Error);
          }
        },
        (error: unknown) => {
          admitUnread(request, holder, error);
          done();
        },
      );
    } catch (error) {
      done(error as Error);
    }
  };
  app.addHook('onRoute', (route) => {
    if (!isLimitedRoute(route.method, route.url)) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? check : [check, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Budgets, when any is configured (app.ts decorates it). */
    budgets?: BudgetLedger;
    /** Checks one WebSocket turn against its key's budget (refused: a 429 budget_exceeded), when any budget is configured. */
    admitTurnBudget?: (request: FastifyRequest) => Promise<void>;
    /**
     * Reserves a chat's estimated cost against the budget its request carries (BudgetLedger.reserve), when any
     * budget is configured; refused: a 429 budget_exceeded (`reply`, absent for a WebSocket turn, gets its retry-after).
     * The route releases what it returns once the request ends.
     */
    reserveBudget?: (
      request: FastifyRequest,
      reply: FastifyReply | undefined,
      input: ChatInput,
    ) => MaybePromise<SpendReservation | undefined>;
    /** The same for an embeddings request: its input's estimated cost, reserved until it is charged. */
    reserveEmbeddingBudget?: (
      request: FastifyRequest,
      reply: FastifyReply,
      model: string,
      input: EmbeddingRequest['input'],
    ) => MaybePromise<SpendReservation | undefined>;
  }
}
